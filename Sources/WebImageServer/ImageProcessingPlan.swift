import WebImageCore

/// What the image manager is asked to do for a ``ProcessingRequest``, in the core's terms:
/// a decode-time thumbnail, a transformer pipeline and the encoder's settings.
public struct ImageProcessingPlan: Sendable {
    /// The thumbnail decoded (``ImageContext/thumbnail``); nil for the full size.
    public var thumbnail: ThumbnailSize?
    /// In order: an enlarging resize, the rotation, the request's transformers, the blur.
    public var transformers: [any ImageTransformer]
    /// Encoder quality 0.01...1 (``EncodeOptions/quality``); nil for the encoder's default.
    public var quality: Double?
    /// Colour under transparent pixels, 0xRRGGBBAA (``EncodeOptions/backgroundColor``); nil for the default.
    public var backgroundColor: UInt32?
    /// The output format's extension; nil to negotiate.
    public var outputExtension: String?

    /// The plan for `request`, plugin transformers made by `host`.
    /// - Throws: ``ProcessingURLError`` `.unsupported` for a resize that the core cannot do
    ///   with imgproxy's meaning yet (see docs/serving.md), `.invalidArgument` for parameters a
    ///   plugin transformer refuses.
    public init(_ request: ProcessingRequest, host: PluginHost) throws(ProcessingURLError) {
        let options = request.options
        var transformers: [any ImageTransformer] = []
        thumbnail = nil
        switch try Self.resize(options.resize) {
        case .none: break
        case .thumbnail(let size): thumbnail = size
        case .transformer(let resizer): transformers.append(resizer)
        }
        if options.rotation != 0 {
            // imgproxy turns clockwise, RotationTransformer counter-clockwise.
            transformers.append(try! RotationTransformer(degrees: Double(360 - options.rotation), fitsSize: true))
        }
        for spec in options.transformers {
            do throws(TransformerSpecError) {
                if spec.isBuiltIn {
                    transformers.append(try spec.makeBuiltIn())
                } else {
                    let parameters = try spec.pluginParameters()
                    do throws(ImageTransformError) {
                        transformers.append(try host.makeTransformer(named: spec.name, parameters: parameters))
                    } catch {
                        throw TransformerSpecError.invalid(error)
                    }
                }
            } catch {
                throw ProcessingURLError(
                    .invalidArgument, "invalid option '\(spec.name)': \(error.reason(name: spec.name))")
            }
        }
        if let sigma = options.blurSigma { transformers.append(try! BlurTransformer(radius: sigma)) }
        self.transformers = transformers
        quality = options.quality.map { Double($0) / 100 }
        backgroundColor = options.background.map { color in
            UInt32(color.red) << 24 | UInt32(color.green) << 16 | UInt32(color.blue) << 8 | 0xFF
        }
        outputExtension = request.outputExtension
    }

    /// How a resize is done in the core.
    private enum Resize {
        case none
        case thumbnail(ThumbnailSize)
        case transformer(ResizingTransformer)
    }

    /// The core's way to do `resize`: a decode-time thumbnail where the source is never
    /// enlarged (`fit`), a ``ResizingTransformer`` where it is (`enlarge`).
    private static func resize(_ resize: ResizeOptions) throws(ProcessingURLError) -> Resize {
        let unsupported = { (what: String) in ProcessingURLError(.unsupported, "\(what) is not supported yet") }
        if resize.width == 0 && resize.height == 0 { return .none }
        if resize.extends { throw unsupported("extend (padding the result to the requested size)") }
        switch resize.type {
        case .fillDown: throw unsupported("resizing type fill-down")
        case .auto: throw unsupported("resizing type auto")
        case .fit, .fill, .force: break
        }
        guard resize.width > 0 && resize.height > 0 else {
            throw unsupported("a resize with the width or the height 0 (computed from the aspect ratio)")
        }
        if !resize.enlarges {
            guard resize.type == .fit else {
                throw unsupported("resizing type \(resize.type.rawValue) without enlarge")
            }
            return .thumbnail(ThumbnailSize(width: resize.width, height: resize.height, preservesAspectRatio: true))
        }
        let mode: ResizingTransformer.ScaleMode =
            switch resize.type {
            case .fit: .aspectFit
            case .fill: .aspectFill
            default: .fill
            }
        do throws(ImageTransformError) {
            return .transformer(try ResizingTransformer(width: resize.width, height: resize.height, scaleMode: mode))
        } catch {
            throw ProcessingURLError(.invalidArgument, "invalid resize: \(error.message)")
        }
    }
}

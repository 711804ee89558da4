import WebImageCore

/// What the image manager is asked to do for a ``ProcessingRequest``, in the core's terms:
/// a decode-time thumbnail, a transformer pipeline and the encoder's settings.
public struct ImageProcessingPlan: Sendable {
    /// The thumbnail decoded (``ImageContext/thumbnail``); nil for the full size.
    public var thumbnail: ThumbnailSize?
    /// In order: the resize (where the thumbnail does not do it all), the rotation, the
    /// request's transformers, the blur, the `extend` padding.
    public var transformers: [any ImageTransformer]
    /// Encoder quality 0.01...1 (``EncodeOptions/quality``); nil for the encoder's default.
    public var quality: Double?
    /// Colour under transparent pixels, 0xRRGGBBAA (``EncodeOptions/backgroundColor``); nil for the default.
    public var backgroundColor: UInt32?
    /// The output format's extension; nil to negotiate.
    public var outputExtension: String?

    /// The plan for `request`, plugin transformers made by `host`.
    /// - Throws: ``ProcessingURLError`` `.invalidArgument` for parameters a plugin
    ///   transformer refuses.
    public init(_ request: ProcessingRequest, host: PluginHost) throws(ProcessingURLError) {
        let options = request.options
        // imgproxy sizes the result as shown after the rotation: a quarter turn swaps the box
        // that the source is resized into before it turns.
        var resize = options.resize
        if options.rotation % 180 != 0 { swap(&resize.width, &resize.height) }
        let resizing = Self.resize(resize)
        thumbnail = resizing.thumbnail
        var transformers = resizing.transformers
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
        if options.resize.extends && (options.resize.width > 0 || options.resize.height > 0) {
            // imgproxy pads with transparent pixels and flattens them onto the background when
            // one is asked for; the padding here takes the background's colour at once.
            let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
            transformers.append(
                try! PaddingTransformer(
                    width: options.resize.width, height: options.resize.height,
                    color: options.background ?? transparent))
        }
        self.transformers = transformers
        quality = options.quality.map { Double($0) / 100 }
        backgroundColor = options.background.map { color in
            UInt32(color.red) << 24 | UInt32(color.green) << 16 | UInt32(color.blue) << 8 | 0xFF
        }
        outputExtension = request.outputExtension
    }

    /// The decode-time thumbnail and the transformers that resize as `resize` says, with
    /// imgproxy's meaning (``ResizeGeometry``).
    private static func resize(_ resize: ResizeOptions) -> (
        thumbnail: ThumbnailSize?, transformers: [any ImageTransformer]
    ) {
        if resize.width == 0 && resize.height == 0 { return (nil, []) }
        var resize = resize
        if resize.type != .force && (resize.width == 0 || resize.height == 0) {
            // With a side 0, every type but force keeps the aspect ratio: a fit.
            resize.type = .fit
        }
        if resize.type == .fit {
            // The thumbnail is the whole fit of a larger source; the transformer enlarges a
            // smaller one and leaves the thumbnail as it is.
            let thumbnail = ThumbnailSize(width: resize.width, height: resize.height, preservesAspectRatio: true)
            return (thumbnail, resize.enlarges ? [ImgproxyResizingTransformer(resize: resize)] : [])
        }
        if (resize.type == .fill || resize.type == .force) && resize.enlarges && resize.width > 0 && resize.height > 0 {
            // Exactly the box whatever the source's size.
            let mode: ResizingTransformer.ScaleMode = resize.type == .fill ? .aspectFill : .fill
            return (nil, [try! ResizingTransformer(width: resize.width, height: resize.height, scaleMode: mode)])
        }
        return (nil, [ImgproxyResizingTransformer(resize: resize)])
    }
}

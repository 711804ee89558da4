import WebImageCore

/// Parsing of `--transform SPEC`, one transformer per spec in the form of
/// ``TransformerSpec`` (shared with the image server's URL options): a built-in transformer
/// (`resize`, `crop`, `round-corner`, `flip`, `rotate`, `tint`, `blur`) or any other
/// `NAME[:k=v,...]` naming a transformer from a plugin in the search path (for example
/// `sepia:percent=80` from the `effects` example plugin).
package enum TransformArgument {
    /// The names of the built-in transformers, in the order the help lists them.
    package static let builtInNames = TransformerSpec.builtInNames

    /// The transformer `text` describes.
    /// - Throws: ``CLIError`` `invalid --transform '…': …` for a malformed spec or bad
    ///   parameters, and `no transformer named '…'` for an unknown name.
    package static func parse(_ text: String, host: PluginHost) throws -> any ImageTransformer {
        let spec = TransformerSpec(text)
        if spec.isBuiltIn {
            do throws(TransformerSpecError) {
                return try spec.makeBuiltIn()
            } catch {
                throw invalid(text, spec, error)
            }
        }
        let pluginNames = host.transformerNames
        guard pluginNames.contains(spec.name) else {
            let fromPlugins = pluginNames.isEmpty ? "" : "; plugins make " + pluginNames.joined(separator: ", ")
            throw CLIError(
                "no transformer named '\(spec.name)' in --transform '\(text)'; the built-in transformers are "
                    + builtInNames.joined(separator: ", ") + fromPlugins)
        }
        let parameters: [(key: String, value: String)]
        do throws(TransformerSpecError) {
            parameters = try spec.pluginParameters()
        } catch {
            throw invalid(text, spec, error)
        }
        do throws(ImageTransformError) {
            return try host.makeTransformer(named: spec.name, parameters: parameters)
        } catch {
            throw invalid(text, spec, .invalid(error))
        }
    }

    /// The one-line error for the spec `text` that `error` refuses.
    private static func invalid(_ text: String, _ spec: TransformerSpec, _ error: TransformerSpecError) -> CLIError {
        CLIError("invalid --transform '\(text)': \(error.reason(name: spec.name))")
    }

    /// A pipeline of the transformers `texts` describe, in order.
    /// - Throws: ``CLIError`` from the first spec that does not parse.
    package static func pipeline(_ texts: [String], host: PluginHost) throws -> TransformerPipeline {
        TransformerPipeline(try texts.map { try parse($0, host: host) })
    }
}

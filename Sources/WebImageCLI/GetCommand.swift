import ArgumentParser
import FoundationEssentials
import Synchronization
import WebImageCLISupport
import WebImageCore

/// `webimage get URL...`: loads images through the image manager (memory cache, disk cache,
/// loader; decode, thumbnail, transform, store) and tells where each came from.
struct GetCommand: PluginHostCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Load images through the image manager: caches, loader, decoding, transformers.",
        discussion: """
            Several URLs run at once in one process (--sequential: one after another). The command \
            exits after every store and revalidation it started has finished; the exit status is 1 \
            when any URL failed. Each failed URL is one error line on standard error (standard output keeps the \
            results), then a count when there were several. Failed stores to the cache (a full or read-only file system) are \
            one warning; a read-only cache folder still serves its entries. --options takes a comma-separated list of: \
            \(ImageManagerOptions.named.map(\.name).joined(separator: ", ")).
            """)

    @OptionGroup var manager: ManagerOptions

    var pluginOptions: PluginOptions { manager.pluginOptions }

    @Argument(help: "The URLs to load.")
    var urls: [String] = []

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp(
            "Load more URLs, one a line, from a file or - for standard input (after the arguments; a URL listed twice is loaded twice).",
            valueName: "file"))
    var listFile: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write the image to this file (one URL only); its extension chooses the format, checked before downloading (an animation keeps its frames in GIF, APNG or WebP).",
            valueName: "file"))
    var output: String?

    @Option(
        name: .customLong("output-dir"),
        help: ArgumentHelp(
            "Write each image to a new file in this folder (created with its parents when missing), named after its URL's last path segment (made safe; -2, -3... for a name already there).",
            valueName: "dir"))
    var outputDirectory: String?

    @Option(help: ArgumentHelp("Manager options, comma-separated (see above).", valueName: "list"))
    var options: String = ""

    @Option(
        name: .customLong("store-cache-type"),
        help: ArgumentHelp("Where the image is stored: none, memory, disk, all (default all).", valueName: "type"))
    var storeCacheType: String?

    @Option(
        name: .customLong("original-store-cache-type"),
        help: ArgumentHelp("Where the original is stored when a transformer runs (default disk).", valueName: "type"))
    var originalStoreCacheType: String?

    @Option(
        name: .customLong("query-cache-type"),
        help: ArgumentHelp("Where the image is looked up (default all).", valueName: "type"))
    var queryCacheType: String?

    @Option(
        name: .customLong("original-query-cache-type"),
        help: ArgumentHelp(
            "Where the original is looked up when the transformed image is missing (default all).", valueName: "type"))
    var originalQueryCacheType: String?

    @Flag(help: "Load the URLs one after another.")
    var sequential = false

    @Flag(help: "Print one JSON object per URL.")
    var json = false

    func validate() throws {
        guard !(output != nil && outputDirectory != nil) else {
            throw ValidationError("-o and --output-dir exclude each other")
        }
        guard output == nil || (urls.count == 1 && listFile == nil) else {
            throw ValidationError("-o takes exactly one URL argument; use --output-dir for several")
        }
    }

    func run() throws {
        let urls = urls + (try listFile.map(URLList.listedURLs) ?? [])
        guard !urls.isEmpty else { throw CLIError("no URL to get") }
        let namedOptions: ImageManagerOptions
        do {
            namedOptions = try ImageManagerOptions(names: options)
        } catch {
            throw CLIError("invalid --options: \(error.message)")
        }
        // A memory hit written to a file brings the original bytes from disk too, so an
        // animation keeps its frames and a file in the source's format gets its bytes.
        let writesFiles = output != nil || outputDirectory != nil
        let requestOptions = writesFiles ? namedOptions.union(.queryMemoryData) : namedOptions
        let host = pluginOptions.makeHost()
        var requestContext = try manager.context(host: host)
        requestContext.storeCacheType = try storeCacheType.map {
            try CacheTypeArgument.parse($0, option: "--store-cache-type")
        }
        requestContext.originalStoreCacheType = try originalStoreCacheType.map {
            try CacheTypeArgument.parse($0, option: "--original-store-cache-type")
        }
        requestContext.queryCacheType = try queryCacheType.map {
            try CacheTypeArgument.parse($0, option: "--query-cache-type")
        }
        requestContext.originalQueryCacheType = try originalQueryCacheType.map {
            try CacheTypeArgument.parse($0, option: "--original-query-cache-type")
        }
        let folder = try outputDirectory.map(OutputFolder.init)
        let bar =
            !json && Diagnostics.standardErrorIsTerminal ? TransferProgressBar(total: urls.count, noun: "images") : nil
        let imageManager = try manager.makeManager(host: host, bar: bar)
        let context = requestContext
        let sequential = sequential
        let files = try outputFiles(for: urls, in: folder, coders: imageManager.coders)
        let writer = GetImageWriter(
            coders: imageManager.coders, thumbnail: context.thumbnail,
            animationTransformer: requestOptions.contains(.transformAnimatedImage) ? context.transformer : nil,
            limits: imageManager.configuration.transformLimits)
        // Each image is written (when asked) and reduced to its report as soon as it loaded:
        // the images themselves are not kept until every URL finished.
        let reports = runBlocking { () -> [GetReport] in
            var reports: [GetReport] = []
            if sequential {
                for (index, url) in urls.enumerated() {
                    reports.append(
                        await Self.loadAndReport(
                            url, file: files[index], writer, imageManager, requestOptions, context))
                    bar?.itemEnded(failed: reports[index].error != nil)
                }
            } else {
                reports = await withTaskGroup(of: (Int, GetReport).self) { group in
                    for (index, url) in urls.enumerated() {
                        group.addTask {
                            (
                                index,
                                await Self.loadAndReport(
                                    url, file: files[index], writer, imageManager, requestOptions, context)
                            )
                        }
                    }
                    var collected: [(Int, GetReport)] = []
                    for await item in group {
                        collected.append(item)
                        bar?.itemEnded(failed: item.1.error != nil)
                    }
                    return collected.sorted { $0.0 < $1.0 }.map(\.1)
                }
            }
            await imageManager.waitUntilIdle()
            return reports
        }
        bar?.finish()
        CacheFailureWarning.print(imageManager, backend: manager.cacheBackend)
        var failed = 0
        for (index, report) in reports.enumerated() {
            if json { try GetReport.printLine(report) }
            if let error = report.error {
                failed += 1
                URLFailures.print(url: report.url, reason: error)
            } else if !json {
                print(Self.text(report, file: files[index]?.path))
            }
        }
        try URLFailures.finish(failed: failed, of: urls.count, noun: "images")
    }

    /// Loads `url`, writes its image to `file` when there is one, and returns its report,
    /// which then describes the file written.
    private static func loadAndReport(
        _ url: String, file: GetOutputFile?, _ writer: GetImageWriter, _ manager: ImageManager,
        _ options: ImageManagerOptions, _ context: ImageContext
    ) async -> GetReport {
        let started = ContinuousClock.now
        let result = await load(url, manager, options, context)
        var report = Self.report(url: url, result: result, elapsed: ContinuousClock.now - started)
        guard case .success(var image) = result, let file else { return report }
        if writer.mayNeedOriginal(image, for: file) {
            image.animatedImageData = await originalBytes(url, manager, context)
        }
        do {
            report.describe(try writer.write(image, to: file))
        } catch {
            report.error = "cannot write \(file.path): \(error)"
        }
        return report
    }

    /// The original's bytes from the caches (never downloaded), without decoding them, when
    /// they hold an animation; nil when they are in no cache or hold a still image.
    private static func originalBytes(_ url: String, _ manager: ImageManager, _ context: ImageContext) async -> Data? {
        var original = context
        original.thumbnail = nil
        original.transformer = nil
        original.queryCacheType = context.originalQueryCacheType
        original.storeCacheType = ImageCacheType.none
        let options: ImageManagerOptions = [.fromCacheOnly, .queryMemoryData, .avoidDecodeImage]
        guard let data = try? await manager.image(for: url, options: options, context: original).data,
            let info = try? manager.coders.probe([UInt8](data)), info.frameCount > 1
        else { return nil }
        return data
    }

    private static func load(
        _ url: String, _ manager: ImageManager, _ options: ImageManagerOptions, _ context: ImageContext
    ) async -> Result<ImageResult, ImageManagerError> {
        do {
            return .success(try await manager.image(for: url, options: options, context: context))
        } catch {
            return .failure(error)
        }
    }

    /// The file each of `urls`' images is written to, when one is asked for: `-o`'s (its
    /// extension's format checked to be writable before anything is downloaded), or one new
    /// file per URL in `folder` whose extension names the format written (the URL's when a
    /// coder writes it, else `png`).
    private func outputFiles(for urls: [String], in folder: OutputFolder?, coders: CodersManager) throws
        -> [GetOutputFile?]
    {
        if let output {
            let hasExtension = !URL(fileURLWithPath: output).pathExtension.isEmpty
            let format = hasExtension ? try OutputFormat.choose(for: output, coders: coders) : nil
            return [GetOutputFile(path: output, isNew: false, format: format)]
        }
        guard var folder else { return urls.map { _ in nil } }
        guard let png = coders.encodableFormat("png") else {
            throw CLIError("cannot write to --output-dir: no coder writes png")
        }
        return try urls.map { url in
            let urlExtension = OutputFolder.pathExtension(of: URLFileName.name(for: url))
            let format = coders.encodableFormat(urlExtension)
            let file = try folder.claim(for: url, fileExtension: format == nil ? "png" : urlExtension)
            return GetOutputFile(path: file.path, isNew: true, format: format ?? png)
        }
    }

    private static func report(url: String, result: Result<ImageResult, ImageManagerError>, elapsed: Duration)
        -> GetReport
    {
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        switch result {
        case .success(let image):
            return GetReport(
                url: url, key: image.cacheKey, cacheType: CacheTypeArgument.name(image.cacheType),
                width: image.image?.width, height: image.image?.height, format: image.image?.format,
                frames: image.frameCount,
                bytesDownloaded: image.cacheType == .none ? Int(image.metrics.load?.bytesReceived ?? 0) : 0,
                bytesWritten: 0, ms: ms, error: nil)
        case .failure(let error):
            return GetReport(
                url: url, key: nil, cacheType: "none", width: nil, height: nil, format: nil, frames: nil,
                bytesDownloaded: 0, bytesWritten: 0, ms: ms, error: error.reason)
        }
    }

    private static func text(_ report: GetReport, file: String?) -> String {
        var line =
            "\(URLText.abbreviated(report.url)): \(report.width ?? 0)x\(report.height ?? 0) \(report.format ?? "data")"
        line += " from \(report.cacheType == "none" ? "the network" : "the \(report.cacheType) cache")"
        line += String(printf: " in %.1f ms", report.ms)
        if let file { line += " -> \(file)" }
        return line
    }
}

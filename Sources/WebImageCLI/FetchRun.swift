import Dispatch
import FoundationEssentials
import WebImageCLISupport
import WebImageCore

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the downloads of a ``FetchPlan``: each body goes to a temporary name in the output
/// folder and is renamed when complete; `bar`, when there is one, counts the files (its
/// bytes come from the downloader's loaders).
///
/// At most twice the downloader's ``ImageDownloaderConfiguration/maxConcurrentDownloads``
/// downloads are handed over at first, and each written file hands over the next, so when
/// the disk is slower than the network the bodies wait on the server, not in memory (handing
/// all of them over at once held up to 470 bodies, 123 MB, for 1,000 files). The writer that
/// finished a file hands over the next itself: no thread is woken for it.
struct FetchRun {
    let plan: FetchPlan
    let downloader: ImageDownloader
    let bar: TransferProgressBar?

    /// Downloads everything and returns one report per URL, in the plan's order.
    func run() -> [FetchReport] {
        let reports = TrackedMutex<[FetchReport?]>(Array(repeating: nil, count: plan.items.count))
        let nextIndex = TrackedMutex(0)
        let group = DispatchGroup()
        let writers = DispatchQueue(label: "webimage.fetch.write", attributes: .concurrent)
        let (plan, downloader, bar) = (plan, downloader, bar)
        @Sendable func startNext() {
            let next = nextIndex.withLock { next -> Int? in
                guard next < plan.items.count else { return nil }
                defer { next += 1 }
                return next
            }
            guard let index = next else { return }
            let item = plan.items[index]
            group.enter()
            let started = ContinuousClock.now
            downloader.download(DownloadRequest(url: item.url)) { result in
                // Files are written off the loader's I/O thread.
                writers.async {
                    let report = Self.finish(item, result, elapsed: ContinuousClock.now - started)
                    reports.withLock { $0[index] = report }
                    bar?.itemEnded(failed: report.error != nil)
                    startNext()
                    group.leave()
                }
            }
        }
        for _ in 0..<(2 * downloader.configuration.maxConcurrentDownloads) { startNext() }
        group.wait()
        bar?.finish()
        return reports.withLock { $0.map { $0! } }
    }

    /// This process's ID, in the temporary files' names.
    private static let processID = getpid()

    private static func finish(
        _ item: FetchPlan.Item, _ result: Result<DownloadResult, ImageLoadingError>, elapsed: Duration
    ) -> FetchReport {
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        switch result {
        case .success(let download):
            let temporary = OutputFolder.File(folder: item.file.folder, name: ".\(item.file.name).part-\(processID)")
                .path
            do {
                try FetchFile.write(download.data, to: temporary)
                try FetchFile.move(temporary, toNew: item.file.path)
            } catch {
                unlink(temporary)
                return FetchReport(
                    url: item.url, status: download.response.statusCode, httpVersion: download.response.httpVersion,
                    bytesDownloaded: download.data.count, bytesWritten: 0,
                    contentType: download.response.headers["Content-Type"],
                    etag: download.response.headers["ETag"], file: nil, ms: milliseconds,
                    error: "cannot write \(item.file.path): \(error)")
            }
            return FetchReport(
                url: item.url, status: download.response.statusCode, httpVersion: download.response.httpVersion,
                bytesDownloaded: download.data.count, bytesWritten: download.data.count,
                contentType: download.response.headers["Content-Type"],
                etag: download.response.headers["ETag"], file: item.file.path, ms: milliseconds, error: nil)
        case .failure(let error):
            return FetchReport(
                url: item.url, status: error.statusCode, httpVersion: nil, bytesDownloaded: 0, bytesWritten: 0,
                contentType: error.headers?["Content-Type"], etag: error.headers?["ETag"], file: nil, ms: milliseconds,
                error: error.description)
        }
    }
}

import Foundation
import WebImageCLISupport
import WebImageCore

/// Runs the downloads of a ``FetchPlan``: each body goes to a temporary name in the output
/// folder and is renamed when complete; `bar`, when there is one, counts the files (its
/// bytes come from the downloader's loaders).
///
/// A download is handed to the downloader only while fewer than twice its
/// ``ImageDownloaderConfiguration/maxConcurrentDownloads`` bodies are in flight or waiting to
/// be written, so when the disk is slower than the network the bodies wait on the server,
/// not in memory (handing all of them over at once held up to 470 bodies, 123 MB, for 1,000 files).
struct FetchRun {
    let plan: FetchPlan
    let downloader: ImageDownloader
    let bar: TransferProgressBar?

    /// Downloads everything and returns one report per URL, in the plan's order.
    func run() -> [FetchReport] {
        let reports = TrackedMutex<[Int: FetchReport]>([:])
        let group = DispatchGroup()
        let writers = DispatchQueue(label: "webimage.fetch.write", attributes: .concurrent)
        let slots = DispatchSemaphore(value: 2 * downloader.configuration.maxConcurrentDownloads)
        for (index, item) in plan.items.enumerated() {
            slots.wait()
            group.enter()
            let started = ContinuousClock.now
            downloader.download(DownloadRequest(url: item.url)) { result in
                // Files are written off the loader's I/O thread.
                writers.async {
                    let report = Self.finish(item, result, elapsed: ContinuousClock.now - started)
                    reports.withLock { $0[index] = report }
                    bar?.itemEnded(failed: report.error != nil)
                    slots.signal()
                    group.leave()
                }
            }
        }
        group.wait()
        bar?.finish()
        return reports.withLock { all in plan.items.indices.map { all[$0]! } }
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
                    error: "cannot write \(item.file.path): \(error.localizedDescription)")
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

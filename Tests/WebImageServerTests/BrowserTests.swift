import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// `webimage serve` as a browser sees it: headless Chromium loads a page of `<img>` elements
/// at signed server URLs, and the page writes each image's state and natural size into the
/// DOM that `--dump-dom` prints. Chromium reaches nothing but 127.0.0.1.
@Suite("webimage serve in Chromium")
struct BrowserTests {
    /// Chromium's flags: headless, no sandbox (the tests run as root), no background traffic,
    /// every name but 127.0.0.1 unresolvable.
    static let chromiumFlags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--virtual-time-budget=10000",
    ]

    @Test("a JPEG, a PNG with alpha, a GIF animation, a HEIC source and a transformed image load at their sizes")
    func imagesLoad() async throws {
        try await onOwnThread {
            let plugins = try PluginsFolder()
            try plugins.addAllBundled()
            let host = PluginHost(
                searchPath: PluginSearchPath(directories: [plugins.path], trustedDirectories: [plugins.path]))
            let coders = host.makeCodersManager()
            let photo = try Fixture.bytes("jpeg/baseline.jpg")
            let heic = try coders.encode(try coders.decode(photo).pixels, options: EncodeOptions(format: "heic")).bytes
            let origin = try NginxServer(files: [
                "photo.jpg": photo, "alpha.png": try Fixture.bytes("png/filtered-rgba8.png"),
                "anim.gif": try Fixture.bytes("gif/anim.gif"), "photo.heic": heic,
            ])
            let server = try ImageServerProcess(
                ImageServerTests.signing + ["--allow-private-sources"], plugins: plugins)
            let source = "plain/\(origin.http)/static"
            let images: [(id: String, path: String, size: String)] = [
                ("jpeg", "/rs:fit:30:30/\(source)/photo.jpg", "30x21"),
                ("alpha", "/\(source)/alpha.png", "37x12"),
                ("animation", "/\(source)/anim.gif", "8x6"),
                ("heic", "/rs:fit:40:40/\(source)/photo.heic", "40x28"),
                ("transformed", "/rs:fill:20:20:1/rot:90/\(source)/photo.jpg", "20x20"),
            ]
            let tags = try images.map { image in
                #"<img id="\#(image.id)" src="\#(server.baseURL)\#(try ImageServerTests.signed(image.path))">"#
            }
            let page = try TemporaryDirectory()
            let html = try page.write(
                "page.html",
                """
                <!doctype html><html><body>
                \(tags.joined(separator: "\n"))
                <pre id="result"></pre>
                <script>
                window.addEventListener("load", () => {
                  document.getElementById("result").textContent = [...document.images].map(image =>
                    image.id + " " + (image.complete && image.naturalWidth > 0 ? "loaded" : "failed") + " "
                      + image.naturalWidth + "x" + image.naturalHeight).join(";");
                });
                </script>
                </body></html>
                """)
            let run = try MeasuredProcess.run(
                "/usr/bin/chromium",
                Self.chromiumFlags + ["--user-data-dir=\(try page.folder("profile"))", "--dump-dom", "file://\(html)"],
                timeLimit: .seconds(120), addressSpaceLimit: 1 << 44)
            #expect(run.exitStatus == 0, "\(run.standardError.suffix(2000))")
            let dom = run.standardOutput
            let result = dom.components(separatedBy: #"<pre id="result">"#).dropFirst().first?
                .components(separatedBy: "</pre>").first
            #expect(result == images.map { "\($0.id) loaded \($0.size)" }.joined(separator: ";"), "\(dom.suffix(2000))")
            // Chromium's requests were negotiated: the same URL with Chromium's Accept is a
            // memory hit (the same result) and WebP.
            let accept = "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
            let again = try HTTPExchange.send(
                server.baseURL + (try ImageServerTests.signed(images[0].path)), headers: ["Accept": accept])
            #expect(again.headers["content-type"] == "image/webp")
            #expect(again.headers["vary"] == "Accept")
            #expect(again.headers["server-timing"]?.hasPrefix("cache;desc=memory") == true)
        }
    }
}

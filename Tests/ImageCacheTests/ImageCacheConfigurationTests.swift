import Testing
import WebImageCore

/// The options an image cache configuration gives its plugins.
@Suite struct ImageCacheConfigurationTests {
    @Test func theDiskPluginGetsEveryLimit() {
        var configuration = ImageCacheConfiguration()
        configuration.directory = "/var/cache/app"
        configuration.diskSizeLimit = 1000
        configuration.expireType = .access
        configuration.memoryCostLimit = 500
        #expect(
            configuration.diskOptions
                == [
                    "namespace": "default", "max-age": "604800", "directory": "/var/cache/app", "max-size": "1000",
                    "max-count": "0", "expire-type": "access",
                ])
        #expect(configuration.memoryOptions == ["max-cost": "500"])
    }

    @Test func anotherBackendGetsTheNamespaceTheAgeAndItsOwnOptions() {
        var configuration = ImageCacheConfiguration()
        configuration.diskPlugin = "redis"
        configuration.namespace = "thumbs"
        configuration.diskAgeLimit = 3600
        configuration.extraDiskOptions = ["url": "redis://127.0.0.1:6379"]
        #expect(
            configuration.diskOptions
                == ["namespace": "thumbs", "max-age": "3600", "url": "redis://127.0.0.1:6379"])
    }
}

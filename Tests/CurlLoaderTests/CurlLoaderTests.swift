import Testing

/// Every suite of this target, one test at a time: the leak checks count the process's
/// descriptors and the plugin's tasks, which tests running beside them would change.
@Suite(.serialized) enum CurlLoaderTests {}

/// The coder-facing types (``ImageCoder``, ``PixelBuffer``, ``DecodeRequest``, ``ShimCall``, ...)
/// live in `WebImageCoding`, the module a coder plugin links instead of the core; the core
/// re-exports it, so `import WebImageCore` sees them as before.
@_exported import WebImageCoding

import Foundation

/// The size of the extended attribute `name` of the file at `path`, or -1 when it has none.
/// (Glibc's Swift module does not export `getxattr`, so it is looked up in the C library.)
func extendedAttributeSize(_ path: String, _ name: String) -> Int {
    typealias GetXattr =
        @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "getxattr") else { return -1 }
    return unsafeBitCast(symbol, to: GetXattr.self)(path, name, nil, 0)
}

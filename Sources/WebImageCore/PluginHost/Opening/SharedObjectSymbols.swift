import FoundationEssentials

/// Reads the dynamic symbol table of a 64-bit little-endian ELF shared object without opening
/// it as a library, to tell a plugin library from a helper library.
enum SharedObjectSymbols {
    /// True when the file at `path` is a 64-bit little-endian ELF object whose dynamic symbol
    /// table defines `symbol` as a global or weak symbol of default or protected visibility.
    /// False for anything else: another file, a truncated or malformed header, or an object
    /// without section headers.
    static func exports(_ symbol: String, path: String) -> Bool {
        guard let file = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            return false
        }
        return file.withUnsafeBytes { bytes in exports(Array(symbol.utf8), in: ELFBytes(bytes: bytes)) }
    }

    /// ELF constants (the System V ABI's `elf.h` names).
    private enum ELF {
        static let magic: [UInt8] = [0x7F, 0x45, 0x4C, 0x46]
        static let class64: UInt8 = 2
        static let littleEndian: UInt8 = 1
        static let dynamicSymbolTable: UInt32 = 11  // SHT_DYNSYM
        static let sectionHeaderSize = 64
        static let symbolSize = 24
        static let globalBinding: UInt8 = 1
        static let weakBinding: UInt8 = 2
        static let protectedVisibility: UInt8 = 3
    }

    private static func exports(_ name: [UInt8], in elf: ELFBytes) -> Bool {
        guard elf.bytes.count >= 64, Array(elf.bytes[0..<4]) == ELF.magic, elf.bytes[4] == ELF.class64,
            elf.bytes[5] == ELF.littleEndian,
            let sectionsOffset = elf.integer(at: 0x28, size: 8),
            let sectionCount = elf.integer(at: 0x3C, size: 2)
        else { return false }
        for index in 0..<sectionCount {
            let header = sectionsOffset + index * ELF.sectionHeaderSize
            guard let type = elf.integer(at: header + 4, size: 4), UInt32(type) == ELF.dynamicSymbolTable,
                let symbolsOffset = elf.integer(at: header + 24, size: 8),
                let symbolsSize = elf.integer(at: header + 32, size: 8),
                let stringsIndex = elf.integer(at: header + 40, size: 4),
                let stringsOffset = elf.integer(at: sectionsOffset + stringsIndex * ELF.sectionHeaderSize + 24, size: 8)
            else { continue }
            for symbol in stride(from: symbolsOffset, to: symbolsOffset + symbolsSize, by: ELF.symbolSize) {
                guard let nameOffset = elf.integer(at: symbol, size: 4),
                    let info = elf.integer(at: symbol + 4, size: 1),
                    let other = elf.integer(at: symbol + 5, size: 1),
                    let sectionIndex = elf.integer(at: symbol + 6, size: 2)
                else { return false }
                let binding = UInt8(info >> 4)
                let visibility = UInt8(other & 3)
                if sectionIndex != 0, binding == ELF.globalBinding || binding == ELF.weakBinding,
                    visibility == 0 || visibility == ELF.protectedVisibility,
                    elf.string(at: stringsOffset + nameOffset, equals: name)
                {
                    return true
                }
            }
        }
        return false
    }

    /// Bounds-checked little-endian reads of a file's bytes.
    private struct ELFBytes {
        let bytes: UnsafeRawBufferPointer

        /// The unsigned little-endian integer of `size` bytes at `offset`; nil past the end or
        /// above 2^40 (no offset, size or index of a real library is; sums of a few stay far
        /// from overflowing).
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
            var value: UInt64 = 0
            for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
            return value <= 1 << 40 ? Int(value) : nil
        }

        /// True when the NUL-terminated string at `offset` is `name`.
        func string(at offset: Int, equals name: [UInt8]) -> Bool {
            guard offset >= 0, offset <= bytes.count - name.count - 1 else { return false }
            return bytes[offset + name.count] == 0 && name.indices.allSatisfy { bytes[offset + $0] == name[$0] }
        }
    }
}

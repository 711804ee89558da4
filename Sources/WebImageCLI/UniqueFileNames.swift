/// The file names of one run's outputs, each used once: a name already given (or taken by
/// something else) gets a suffix, `-2`, `-3`... in the form the caller chooses.
///
/// Each name remembers the next suffix to try: the suffixes below it stay taken, so many
/// outputs with one name (`photo?id=1`, `photo?id=2`...) cost one try each instead of one per
/// earlier output.
struct UniqueFileNames {
    private var used: Set<String> = []
    private var nextSuffix: [String: Int] = [:]

    /// `name` when it is free, else `suffixed(n)` for the first free `n` from 2; free means not
    /// given before and not `isTaken`. The result counts as given.
    mutating func claim(
        _ name: String, suffixed: (Int) -> String, isTaken: (String) -> Bool = { _ in false }
    ) -> String {
        var candidate = name
        var suffix = nextSuffix[name] ?? 2
        while used.contains(candidate) || isTaken(candidate) {
            candidate = suffixed(suffix)
            suffix += 1
        }
        nextSuffix[name] = suffix
        used.insert(candidate)
        return candidate
    }
}

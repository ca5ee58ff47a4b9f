/// Levenshtein distance, for "Did you mean" suggestions.
package func editDistance(_ a: String, _ b: String) -> Int {
    let left = Array(a)
    let right = Array(b)
    var previous = Array(0...right.count)
    for (i, x) in left.enumerated() {
        var current = [i + 1]
        for (j, y) in right.enumerated() {
            current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
    }
    return previous[right.count]
}

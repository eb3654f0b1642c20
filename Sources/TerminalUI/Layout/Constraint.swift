/// How much of a row or column split one part gets; see ``Rect/rows(_:spacing:)`` and
/// ``Rect/columns(_:spacing:)``, and ``Table`` column widths.
///
/// The lengths are solved in two passes:
/// 1. In declaration order, every part gets its base length — `fixed(n)` → n, `percent(p)` →
///    p % of the space, `min(n)` → n, `fill` → 0 — each clamped to what is still free, so
///    when space runs out the **earlier parts win** and the later ones shrink to zero.
/// 2. What is left goes to the `fill` and `min` parts in proportion to their weights
///    (`min` weighs 1); the rounding remainder goes one cell each to the earliest of them.
///    With no such part, the space is left unused at the end.
public enum Constraint: Hashable, Sendable {
    /// Exactly `n` cells (fewer if the space runs out).
    case fixed(Int)
    /// `p` percent of the available space (0–100), rounded down.
    case percent(Int)
    /// At least `n` cells, growing like `fill(1)` into leftover space.
    case min(Int)
    /// A share of the leftover space proportional to `weight`.
    case fill(_ weight: Int = 1)

    /// Solves a list of constraints for a length.
    ///
    /// - Parameters:
    ///   - constraints: One constraint per part.
    ///   - total: The space to divide, in cells.
    ///   - spacing: Cells between consecutive parts, taken off before dividing.
    /// - Returns: One non-negative length per constraint; their sum never exceeds
    ///   `total - spacing × (count - 1)`.
    public static func lengths(for constraints: [Constraint], total: Int, spacing: Int = 0) -> [Int] {
        guard !constraints.isEmpty else { return [] }
        let gaps = max(0, spacing) * (constraints.count - 1)
        let available = max(0, total - gaps)
        var remaining = available
        var lengths = [Int](repeating: 0, count: constraints.count)
        var weights = [Int](repeating: 0, count: constraints.count)
        for (index, constraint) in constraints.enumerated() {
            let base: Int
            switch constraint {
            case .fixed(let n):
                base = max(0, n)
            case .percent(let p):
                base = available * Swift.min(Swift.max(p, 0), 100) / 100
            case .min(let n):
                base = max(0, n)
                weights[index] = 1
            case .fill(let weight):
                base = 0
                weights[index] = max(0, weight)
            }
            let granted = Swift.min(base, remaining)
            lengths[index] = granted
            remaining -= granted
        }
        let totalWeight = weights.reduce(0, +)
        guard totalWeight > 0, remaining > 0 else { return lengths }
        var handedOut = 0
        for index in lengths.indices where weights[index] > 0 {
            let share = remaining * weights[index] / totalWeight
            lengths[index] += share
            handedOut += share
        }
        var leftover = remaining - handedOut
        for index in lengths.indices where weights[index] > 0 && leftover > 0 {
            lengths[index] += 1
            leftover -= 1
        }
        return lengths
    }
}

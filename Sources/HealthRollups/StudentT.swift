import Foundation

/// Student's t distribution with a whole number of degrees of freedom, for the 95 % interval of a trend.
package enum StudentT {
    /// P(|T| ≤ t) for `degrees` ≥ 1, from the closed forms for whole degrees of freedom (with θ = atan(t/√ν),
    /// a finite series in cos θ: Abramowitz & Stegun 26.7.3–4): exact up to rounding, no iteration.
    package static func centralProbability(_ t: Double, degrees: Int) -> Double {
        precondition(degrees >= 1)
        let theta = atan(abs(t) / Double(degrees).squareRoot())
        let (sine, cosine) = (sin(theta), cos(theta))
        let cosineSquared = cosine * cosine
        if degrees % 2 == 0 {
            // sin θ · (1 + 1/2 cos²θ + (1·3)/(2·4) cos⁴θ + … up to cos^(ν−2)θ)
            var term = 1.0
            var sum = 1.0
            var k = 2
            while k <= degrees - 2 {
                term *= Double(k - 1) / Double(k) * cosineSquared
                sum += term
                k += 2
            }
            return sine * sum
        }
        // (2/π) · (θ + sin θ · (cos θ + (2/3) cos³θ + … up to cos^(ν−2)θ)); ν = 1 is (2/π) θ
        guard degrees > 1 else { return 2 / Double.pi * theta }
        var term = cosine
        var sum = cosine
        var k = 3
        while k <= degrees - 2 {
            term *= Double(k - 1) / Double(k) * cosineSquared
            sum += term
            k += 2
        }
        return 2 / Double.pi * (theta + sine * sum)
    }

    /// The t with P(|T| ≤ t) = `central` (0.95 gives the two-sided 95 % quantile t₀.₉₇₅), by bisection on
    /// `centralProbability` (increasing in t) to the last bit.
    package static func quantile(central: Double, degrees: Int) -> Double {
        precondition(central > 0 && central < 1)
        var low = 0.0
        var high = 1.0
        while centralProbability(high, degrees: degrees) < central { high *= 2 }
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if middle == low || middle == high { break }
            if centralProbability(middle, degrees: degrees) < central { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}

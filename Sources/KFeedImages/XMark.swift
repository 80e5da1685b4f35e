/// The X mark of a render's attribution, drawn by kfeed from two simple shapes (no image file, no font glyph): a
/// wide stroke from the top left to the bottom right, hollowed by a slit along its length when the mark is large
/// enough for the slit to show, and a thin stroke from the bottom left to the top right. Coordinates are in a unit
/// square, x to the right and y down; the same shapes make the web pages' inline SVG (``svg(size:)``).
package enum XMark {
    /// A point of the unit square.
    package typealias Point = SIMD2<Float>

    /// The wide stroke: a parallelogram with horizontal ends, 0.36 of the side wide.
    package static let stroke: [Point] = [.init(0, 0), .init(0.36, 0), .init(1, 1), .init(0.64, 1)]
    /// The slit inside the wide stroke, along its length.
    package static let slit: [Point] = [.init(0.151, 0.08), .init(0.311, 0.08), .init(0.849, 0.92), .init(0.689, 0.92)]
    /// The thin stroke, 0.09 of the side wide at its ends.
    package static let bar: [Point] = bar(halfWidth: 0.045)

    /// The smallest side, in pixels, at which the slit is drawn: below it the slit would be a smudge.
    static let slitFromSize = 20

    /// The thin stroke with ends `2 × halfWidth` wide, centred on the line from (0.095, 1) to (0.905, 0).
    static func bar(halfWidth: Float) -> [Point] {
        [
            .init(0.905 - halfWidth, 0), .init(0.905 + halfWidth, 0), .init(0.095 + halfWidth, 1),
            .init(0.095 - halfWidth, 1),
        ]
    }

    /// Whether the mark covers `point` (unit square) when drawn with `bar` and, if `hasSlit`, the slit.
    static func covers(_ point: Point, bar: [Point], hasSlit: Bool) -> Bool {
        if isInside(point, bar) { return true }
        return isInside(point, stroke) && !(hasSlit && isInside(point, slit))
    }

    /// Draws the mark in a `size`×`size` box whose top left is (`x`, `y`), in `colour`, anti-aliased (16 samples a
    /// pixel). The thin stroke is kept at least 1.6 pixels wide, so that a 1-bit panel does not break it up.
    static func draw(on canvas: inout RenderCanvas, x: Int, y: Int, size: Int, colour: RenderCanvas.Colour) {
        guard size > 0 else { return }
        let side = Float(size)
        let thin = bar(halfWidth: max(0.045, 0.8 / side))
        let hasSlit = size >= slitFromSize
        let samples = 4
        for row in 0..<size {
            for column in 0..<size {
                var hits = 0
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        let point = Point(
                            (Float(column) + (Float(sx) + 0.5) / Float(samples)) / side,
                            (Float(row) + (Float(sy) + 0.5) / Float(samples)) / side
                        )
                        if covers(point, bar: thin, hasSlit: hasSlit) { hits += 1 }
                    }
                }
                guard hits > 0 else { continue }
                canvas.blend(x + column, y + row, colour: colour, coverage: Float(hits) / Float(samples * samples))
            }
        }
    }

    /// The mark as an inline SVG element `size` CSS pixels wide, in `currentColor`: the wide stroke with its slit
    /// (even-odd fill) and the thin stroke, from the same shapes as the renders'.
    package static func svg(size: Int, className: String = "xmark") -> String {
        func points(_ shape: [Point]) -> String {
            shape.map { "\(coordinate($0.x)),\(coordinate($0.y))" }.joined(separator: " ")
        }
        func path(_ shape: [Point]) -> String {
            "M" + shape.map { "\(coordinate($0.x)) \(coordinate($0.y))" }.joined(separator: "L") + "Z"
        }
        return "<svg class=\"\(className)\" viewBox=\"0 0 1000 1000\" width=\"\(size)\" height=\"\(size)\" "
            + "role=\"img\" aria-label=\"X\" fill=\"currentColor\">"
            + "<path fill-rule=\"evenodd\" d=\"\(path(stroke))\(path(slit))\"/>"
            + "<polygon points=\"\(points(bar))\"/></svg>"
    }

    /// A unit coordinate in the SVG's 1000-unit box.
    private static func coordinate(_ value: Float) -> Int { Int((value * 1000).rounded()) }

    /// Whether `point` lies inside the convex polygon `shape` (either winding).
    private static func isInside(_ point: Point, _ shape: [Point]) -> Bool {
        var sign: Float = 0
        for index in shape.indices {
            let a = shape[index]
            let b = shape[(index + 1) % shape.count]
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if cross == 0 { continue }
            if sign == 0 {
                sign = cross
            } else if (cross > 0) != (sign > 0) {
                return false
            }
        }
        return true
    }
}

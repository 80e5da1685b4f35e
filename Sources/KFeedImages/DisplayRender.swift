package import Foundation

/// A finished display render: the file's bytes and how to name it.
package struct DisplayRender: Sendable {
    /// The whole file (PNG, BMP or JPEG), ready to write to `renders/<media key>-<profile>.<ext>`.
    package var data: Data
    /// The profile it was rendered for.
    package var profile: DisplayProfile
    /// What the caption band showed, when there was one; for tests and logs.
    var caption: CaptionBand.Report?
    /// Whether the byte cap forced the coarser fallback (nearest colour, no error diffusion).
    var isDegraded = false

    /// The file name extension, without the dot (`png`, `bmp`, `jpg`).
    package var fileExtension: String { profile.fileExtension }
}

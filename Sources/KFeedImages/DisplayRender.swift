public import Foundation

/// A finished display render: the file's bytes and how to name it.
public struct DisplayRender: Sendable {
    /// The whole file (PNG, BMP or JPEG), ready to write to `renders/<media key>-<profile>.<ext>`.
    public var data: Data
    /// The profile it was rendered for.
    public var profile: DisplayProfile
    /// What the caption band showed, when there was one; for tests and logs.
    var caption: CaptionBand.Report?
    /// Whether the byte cap forced the coarser fallback (nearest colour, no error diffusion).
    var isDegraded = false

    /// The file name extension, without the dot (`png`, `bmp`, `jpg`).
    public var fileExtension: String { profile.fileExtension }
}

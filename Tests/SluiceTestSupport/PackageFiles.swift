import Foundation

/// Files of this package (models, examples, real feeds), found from this file's path, so the
/// tests read them wherever the checkout is.
public enum PackageFiles {
    /// The package's root directory: the nearest folder above this file holding Package.swift.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// The path of a file of the package, e.g. `Examples/transit/model.json`.
    public static func path(_ relativePath: String) -> String {
        root + "/" + relativePath
    }

    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(relativePath))))
    }
}

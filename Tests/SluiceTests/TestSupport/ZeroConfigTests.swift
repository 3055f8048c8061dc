/// The zero-config import's suites (assembler, writer, importer), nested here so
/// `swift test --filter ZeroConfig` selects them all.
import Testing

@Suite enum ZeroConfigTests {}

import Testing
@testable import Sluice

/// The digest of Core Data's version hashes: FIPS 180-4's test vectors, and messages whose
/// padding takes one block or spills into a second (111, 112 and 128 bytes).
@Suite struct SHA512Tests {
    @Test(arguments: [
        ("", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        ("abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"),
        (String(repeating: "x", count: 111), "9a2a120825c2319867758ec277924f6faa254968bf752046dacdd948d8ad299b10359fd04bfd7d3810b5fa1b16a294236138baff981cbb85248478053ac4d3dd"),
        (String(repeating: "x", count: 112), "a3722b515ef40c910f2419f6e0da8ca51d410114ce6272faae64045f9e9f630e7fa8dd5a3243c9860b899d148c3da4bc0f9e07454542604d030bb55531fe0d5b"),
        (String(repeating: "x", count: 128), "e2e22f8422b54b06e35c3ea30a383d1de7a8fbc27992923074103117020d8dd7024c3ecf7d6d1a15a6de5a75ff32fb486b9e8ced4c02ffe05822bf2cb734d0e0"),
    ])
    func digestsMatchTheStandard(_ message: String, _ digest: String) {
        #expect(hex(SHA512.digest(of: Array(message.utf8))) == digest)
    }

    @Test func aMillionBytesFedInPieces() {
        var hash = SHA512()
        for _ in 0..<1000 { hash.update([UInt8](repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(hex(hash.finish()) == "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }
}

@Suite struct Base64EncodingTests {
    /// RFC 4648 §10's vectors.
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func encodesAsTheStandardSays(_ text: String, _ encoded: String) {
        #expect(Base64Encoding.encode(Array(text.utf8)) == encoded)
    }
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

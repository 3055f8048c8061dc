import Testing
@testable import Sluice

// Nested in `ConversionTests` so that `swift test --filter Conversion` runs it too.
extension ConversionTests {
    @Suite("Conversion: JSONTextWriter")
    struct JSONTextWriterTests {
        private func key(_ writer: inout JSONTextWriter, _ text: String) {
            Array(text.utf8).withUnsafeBytes { writer.key($0) }
        }

        private func scalar(_ writer: inout JSONTextWriter, _ value: TestScalar) {
            value.withScalar { writer.scalar($0) }
        }

        @Test func nestedObjectsAndArrays() {
            var writer = JSONTextWriter()
            writer.startObject()
            key(&writer, "a")
            writer.startArray()
            scalar(&writer, .number("1"))
            scalar(&writer, .bool(true))
            scalar(&writer, .null)
            scalar(&writer, .string("x"))
            writer.startArray()
            writer.endArray()
            writer.startObject()
            key(&writer, "k")
            scalar(&writer, .bool(false))
            writer.endObject()
            writer.endArray()
            key(&writer, "b")
            writer.startObject()
            writer.endObject()
            key(&writer, "c")
            writer.startArray()
            writer.endArray()
            key(&writer, "d")
            scalar(&writer, .number("-1.50E+3"))
            writer.endObject()
            #expect(writer.text == #"{"a":[1,true,null,"x",[],{"k":false}],"b":{},"c":[],"d":-1.50E+3}"#)
        }

        @Test func emptyContainers() {
            var writer = JSONTextWriter()
            writer.startArray()
            writer.startObject()
            writer.endObject()
            writer.startObject()
            writer.endObject()
            writer.endArray()
            #expect(writer.text == "[{},{}]")
        }

        @Test func escapesStringsAndKeys() {
            var writer = JSONTextWriter()
            writer.startObject()
            key(&writer, "q\"k\\\n")
            scalar(&writer, .string("tab\t cr\r bs\u{8} ff\u{c} nul\u{0} us\u{1f} del\u{7f} /é☃😀"))
            writer.endObject()
            #expect(writer.text
                == #"{"q\"k\\\n":"tab\t cr\r bs\b ff\f nul\u0000 us\u001f del"# + "\u{7f} /é☃😀\"}")
        }

        @Test func numbersAreWrittenAsTheirText() {
            var writer = JSONTextWriter()
            writer.startArray()
            for number in ["10158365420975381", "-9223372036854775808", "1e400", "0.10", "-0"] {
                scalar(&writer, .number(number))
            }
            writer.endArray()
            #expect(writer.text == "[10158365420975381,-9223372036854775808,1e400,0.10,-0]")
        }

        @Test func resetStartsOverKeepingCapacity() {
            var writer = JSONTextWriter()
            writer.startArray()
            scalar(&writer, .number("1"))
            writer.endArray()
            let capacity = writer.bytes.capacity
            writer.reset()
            #expect(writer.bytes.isEmpty)
            #expect(writer.bytes.capacity == capacity)
            writer.startObject()
            key(&writer, "a")
            scalar(&writer, .string("b"))
            writer.endObject()
            #expect(writer.text == #"{"a":"b"}"#)
            writer.reset()
            scalar(&writer, .string("top"))
            #expect(writer.bytes == Array(#""top""#.utf8))
        }

        @Test func matchesTheJSONConversionOfStrings() {
            let text = "a\"b\\c\n\u{1}é"
            var writer = JSONTextWriter()
            scalar(&writer, .string(text))
            #expect(converted(.string(text), to: .json) == .text(writer.text))
        }
    }
}

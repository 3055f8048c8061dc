internal import CLibPQ

/// libpq's functions, found at run time (`DynamicLibrary`): only an import into PostgreSQL
/// loads libpq. The types and constants come from libpq's own header (`CLibPQ`, which links
/// nothing); the functions are called through these pointers and nowhere else.
struct LibPQ: @unchecked Sendable {
    typealias Connection = OpaquePointer
    typealias Result = OpaquePointer

    let connectdb: @convention(c) (UnsafePointer<CChar>?) -> Connection?
    let status: @convention(c) (Connection?) -> ConnStatusType
    let errorMessage: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (Connection?) -> Void
    let setNoticeProcessor: @convention(c) (Connection?, PQnoticeProcessor?, UnsafeMutableRawPointer?) -> PQnoticeProcessor?
    let exec: @convention(c) (Connection?, UnsafePointer<CChar>?) -> Result?
    let execParams: @convention(c) (Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?,
                                    UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?,
                                    Int32) -> Result?
    let putCopyData: @convention(c) (Connection?, UnsafePointer<CChar>?, Int32) -> Int32
    let putCopyEnd: @convention(c) (Connection?, UnsafePointer<CChar>?) -> Int32
    let getResult: @convention(c) (Connection?) -> Result?
    let resultStatus: @convention(c) (Result?) -> ExecStatusType
    let ntuples: @convention(c) (Result?) -> Int32
    let nfields: @convention(c) (Result?) -> Int32
    let cmdTuples: @convention(c) (Result?) -> UnsafeMutablePointer<CChar>?
    let ftype: @convention(c) (Result?, Int32) -> Oid
    let getisnull: @convention(c) (Result?, Int32, Int32) -> Int32
    let getvalue: @convention(c) (Result?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let getlength: @convention(c) (Result?, Int32, Int32) -> Int32
    let resultErrorField: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>?
    let clear: @convention(c) (Result?) -> Void
    let getCancel: @convention(c) (Connection?) -> OpaquePointer?
    let cancel: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    let freeCancel: @convention(c) (OpaquePointer?) -> Void

    /// Loaded on first use, once per process.
    static let shared: Swift.Result<LibPQ, SluiceError> = {
        do throws(DynamicLibraryError) {
            return .success(try LibPQ(DynamicLibrary(opening: names)))
        } catch {
            return .failure(SluiceError(.cannotConnect, "cannot load libpq, PostgreSQL's client library "
                + "(install libpq5, or libpq with Homebrew): \(error.reason)"))
        }
    }()

    /// Where Debian, Red Hat, Homebrew and Postgres.app keep it.
    private static let names = ["libpq.so.5", "libpq.so", "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",
                                "/usr/local/opt/libpq/lib/libpq.5.dylib", "/Applications/Postgres.app/Contents/Versions/latest/lib/libpq.5.dylib"]

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        connectdb = try library.function("PQconnectdb")
        status = try library.function("PQstatus")
        errorMessage = try library.function("PQerrorMessage")
        finish = try library.function("PQfinish")
        setNoticeProcessor = try library.function("PQsetNoticeProcessor")
        exec = try library.function("PQexec")
        execParams = try library.function("PQexecParams")
        putCopyData = try library.function("PQputCopyData")
        putCopyEnd = try library.function("PQputCopyEnd")
        getResult = try library.function("PQgetResult")
        resultStatus = try library.function("PQresultStatus")
        ntuples = try library.function("PQntuples")
        nfields = try library.function("PQnfields")
        cmdTuples = try library.function("PQcmdTuples")
        ftype = try library.function("PQftype")
        getisnull = try library.function("PQgetisnull")
        getvalue = try library.function("PQgetvalue")
        getlength = try library.function("PQgetlength")
        resultErrorField = try library.function("PQresultErrorField")
        clear = try library.function("PQclear")
        getCancel = try library.function("PQgetCancel")
        cancel = try library.function("PQcancel")
        freeCancel = try library.function("PQfreeCancel")
    }
}

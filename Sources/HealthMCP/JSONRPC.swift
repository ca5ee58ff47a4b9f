import HealthJSON

/// JSON-RPC 2.0 as MCP's stdio transport carries it: one message per line, no batches (MCP 2025-06-18 removed
/// them), ids that are strings or integers.
package enum JSONRPC {
    /// A JSON-RPC error object.
    package struct Error: Swift.Error, Equatable {
        package var code: Int64
        package var message: String
        package var data: JSON?

        package init(_ code: Int64, _ message: String, data: JSON? = nil) {
            self.code = code
            self.message = message
            self.data = data
        }

        package static let parseError: Int64 = -32700
        package static let invalidRequest: Int64 = -32600
        package static let methodNotFound: Int64 = -32601
        package static let invalidParams: Int64 = -32602
        package static let internalError: Int64 = -32603
        /// MCP's code for a resource URI the server does not have.
        package static let resourceNotFound: Int64 = -32002

        var json: JSON {
            var members: [(String, JSON)] = [("code", .integer(code)), ("message", .string(message))]
            if let data { members.append(("data", data)) }
            return .object(members)
        }
    }

    /// What one line of input is.
    package enum Message: Equatable {
        case request(id: JSON, method: String, params: JSON?)
        case notification(method: String, params: JSON?)
        /// A response to a request of ours; the server sends none, so it is ignored.
        case response
        /// Not a valid message: answered with this error (and the id, when one could be read).
        case invalid(id: JSON, error: Error)
    }

    /// Reads one line. Never throws: whatever the line holds, the answer is a message or an error to send.
    package static func message(fromLine line: some Collection<UInt8>) -> Message {
        let value: JSON
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .invalid(id: .null, error: Error(Error.parseError, "Parse error: \(error)"))
        }
        guard case .object = value else {
            let what = if case .array = value { "a batch (an array), which MCP does not use" } else { "not an object" }
            return .invalid(id: .null, error: Error(Error.invalidRequest, "Invalid Request: \(what)"))
        }
        let id = value["id"]
        // An id must be a string or an integer (MCP: not null); anything else cannot be echoed back faithfully.
        let usableID: JSON? = id.flatMap { id in
            switch id {
            case .string, .integer: return id
            default: return nil
            }
        }
        guard value["jsonrpc"] == .string("2.0") else {
            return .invalid(
                id: usableID ?? .null, error: Error(Error.invalidRequest, "Invalid Request: jsonrpc must be \"2.0\""))
        }
        guard let method = value["method"] else {
            if id != nil, value["result"] != nil || value["error"] != nil { return .response }
            return .invalid(id: usableID ?? .null, error: Error(Error.invalidRequest, "Invalid Request: no method"))
        }
        guard case .string(let name) = method else {
            return .invalid(
                id: usableID ?? .null, error: Error(Error.invalidRequest, "Invalid Request: method must be a string"))
        }
        let params = value["params"]
        if let params {
            switch params {
            case .object, .array: break
            default:
                return .invalid(
                    id: usableID ?? .null,
                    error: Error(Error.invalidRequest, "Invalid Request: params must be an object"))
            }
        }
        guard id != nil else { return .notification(method: name, params: params) }
        guard let usableID else {
            return .invalid(
                id: .null, error: Error(Error.invalidRequest, "Invalid Request: id must be a string or an integer"))
        }
        return .request(id: usableID, method: name, params: params)
    }

    package static func result(id: JSON, _ result: JSON) -> String {
        JSON.object([("jsonrpc", "2.0"), ("id", id), ("result", result)]).serialized
    }

    package static func error(id: JSON, _ error: Error) -> String {
        JSON.object([("jsonrpc", "2.0"), ("id", id), ("error", error.json)]).serialized
    }
}

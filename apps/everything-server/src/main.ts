// The conformance fixture lands with the Streamable HTTP transport (issue 4).
export {};

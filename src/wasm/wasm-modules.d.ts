// A .wasm file imported as a module (Cloudflare Workers and other platforms
// that compile it ahead of time): its default export is the compiled module.
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

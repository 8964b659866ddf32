// What the pages hang on window for the browser tests (tests/web) to read.
interface Window {
  __novuss?: unknown;
  __replay?: unknown;
  crokinole?: unknown;
  crokinoleLink?: unknown;
}

// The print trigger of the badge print frame (issue 10 item 3). The badges are shown in an iframe
// sandboxed without allow-same-origin: an opaque origin that can neither read the app's storage nor
// reach its page. The app cannot call print() on such a frame, so the frame prints itself, 500 ms
// after its images and fonts have loaded (spec §9), and then tells the app it has printed.
(() => {
  const PRINT_DELAY_MS = 500;
  const print = () =>
    setTimeout(() => {
      window.print();
      window.parent.postMessage({ accredoPrint: 'done' }, '*');
    }, PRINT_DELAY_MS);
  if (document.readyState === 'complete') print();
  else window.addEventListener('load', print);
})();

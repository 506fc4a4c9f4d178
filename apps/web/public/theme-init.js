// Applies the saved theme class before the first paint; same rules as src/theme/theme.ts.
(function () {
  try {
    var t = localStorage.getItem('theme');
    if (t !== 'light' && t !== 'dark') t = 'system';
    var dark = t === 'dark' || (t === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.add(dark ? 'dark' : 'light');
  } catch {
    /* storage unavailable: the React ThemeProvider applies the class on start */
  }
})();

/* global document */
// Runs before first paint (index.html loads it blocking in <head>): the stored theme choice, else the
// system's. An inline script would be refused by the CSP (script-src 'self'). Key and values: src/features/theme/theme.ts.
try {
  var choice = localStorage.getItem('glimpse.theme');
  document.documentElement.setAttribute('data-theme', choice === 'light' || choice === 'dark' ? choice : 'system');
} catch {
  // Storage blocked: follow the system.
  document.documentElement.setAttribute('data-theme', 'system');
}

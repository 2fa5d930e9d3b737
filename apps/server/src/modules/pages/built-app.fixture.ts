/** The index.html of a built app as the page tests see it; `head` adds what Vite would (scripts, stylesheets). */
export const builtIndex = (head = '', body = '<div id="root"></div>') => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Glimpse: watch, share and discuss videos" />
    <title>Glimpse</title>
${head}
  </head>
  <body>
    ${body}
  </body>
</html>`;

// The /docs page's look: Binlens's logo in Swagger UI's (dark) top bar, a favicon and the page title. Drawn
// here as SVG text, so nothing is fetched or shipped beside the code.

/** A lens over bits, and the name; sized for the top bar (Swagger UI shows it 40 px high). */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="140" height="40" viewBox="0 0 140 40">
<g transform="translate(18 18.5) scale(0.8) translate(-16 -18.5)" fill="#3ecf8e" stroke="#3ecf8e" stroke-width="2">
<rect x="7" y="9" width="3" height="8" rx="1" stroke="none"/><ellipse cx="16.5" cy="13" rx="2.5" ry="4" fill="none"/>
<rect x="22" y="9" width="3" height="8" rx="1" stroke="none"/><ellipse cx="9" cy="24" rx="2.5" ry="4" fill="none"/>
<rect x="14.5" y="20" width="3" height="8" rx="1" stroke="none"/><ellipse cx="23.5" cy="24" rx="2.5" ry="4" fill="none"/>
</g>
<circle cx="18" cy="18.5" r="14" fill="none" stroke="#fff" stroke-width="3"/>
<path d="M28 28.5 L35 35.5" stroke="#fff" stroke-width="5" stroke-linecap="round"/>
<text x="44" y="28" fill="#fff" font-family="Helvetica, Arial, sans-serif" font-size="24" font-weight="700">Binlens</text>
</svg>`;

/** The lens alone on a dark tile, so it shows on light and dark browser tabs. */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">
<rect width="40" height="40" rx="8" fill="#1b1b1b"/>
<g transform="translate(18 18.5) scale(0.8) translate(-16 -18.5)" fill="#3ecf8e">
<rect x="7" y="9" width="3" height="8" rx="1"/><rect x="22" y="9" width="3" height="8" rx="1"/>
<rect x="14.5" y="20" width="3" height="8" rx="1"/>
</g>
<circle cx="18" cy="18.5" r="13" fill="none" stroke="#fff" stroke-width="3"/>
<path d="M27.5 28 L34 34.5" stroke="#fff" stroke-width="5" stroke-linecap="round"/>
</svg>`;

/** Options of @fastify/swagger-ui for /docs. */
export const DOCS_UI = {
  routePrefix: '/docs',
  logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG) },
  theme: {
    title: 'Binlens API',
    favicon: [
      { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON_SVG) },
    ],
  },
  // The filter box narrows the page to a tag; each call made from the page shows how long it took.
  uiConfig: { filter: true, displayRequestDuration: true },
};

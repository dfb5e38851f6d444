// urlmon: URL monikers, for the one-call downloaders (URLDownloadToFile).
import type { PrototypeModule } from './module.js';

export const urlmon: PrototypeModule = {
  name: 'urlmon',
  library: 'urlmon.dll',
  platforms: ['windows'],
  declarations: `
typedef struct IBindStatusCallback *LPBINDSTATUSCALLBACK;
typedef struct IStream *LPSTREAM;

HRESULT WINAPI URLDownloadToFileA(LPUNKNOWN pCaller, LPCSTR szURL, LPCSTR szFileName, DWORD dwReserved,
  LPBINDSTATUSCALLBACK lpfnCB);
HRESULT WINAPI URLDownloadToFileW(LPUNKNOWN pCaller, LPCWSTR szURL, LPCWSTR szFileName, DWORD dwReserved,
  LPBINDSTATUSCALLBACK lpfnCB);
HRESULT WINAPI URLDownloadToCacheFileA(LPUNKNOWN lpUnkcaller, LPCSTR szURL, LPSTR szFileName, DWORD cchFileName,
  DWORD dwReserved, LPBINDSTATUSCALLBACK pBSC);
HRESULT WINAPI URLDownloadToCacheFileW(LPUNKNOWN lpUnkcaller, LPCWSTR szURL, LPWSTR szFileName,
  DWORD cchFileName, DWORD dwReserved, LPBINDSTATUSCALLBACK pBSC);
HRESULT WINAPI URLOpenBlockingStreamA(LPUNKNOWN pCaller, LPCSTR szURL, LPSTREAM *ppStream, DWORD dwReserved,
  LPBINDSTATUSCALLBACK lpfnCB);
HRESULT WINAPI URLOpenBlockingStreamW(LPUNKNOWN pCaller, LPCWSTR szURL, LPSTREAM *ppStream, DWORD dwReserved,
  LPBINDSTATUSCALLBACK lpfnCB);
HRESULT WINAPI ObtainUserAgentString(DWORD dwOption, LPSTR pszUAOut, DWORD *cbSize);
`,
};

// ole32 and oleaut32: COM start-up and object creation (WMI, the Task Scheduler and shell links are reached
// this way), task memory, GUID strings, BSTRs and VARIANTs.
import type { PrototypeModule } from './module.js';

const COM_TYPES = `
typedef WCHAR OLECHAR;
typedef OLECHAR *LPOLESTR, *BSTR;
typedef const OLECHAR *LPCOLESTR;
typedef struct tagVARIANT VARIANT, VARIANTARG;
typedef struct _COSERVERINFO COSERVERINFO;
typedef struct tagMULTI_QI MULTI_QI;
typedef struct _SOLE_AUTHENTICATION_SERVICE SOLE_AUTHENTICATION_SERVICE;
`;

export const ole32: PrototypeModule = {
  name: 'ole32',
  library: 'ole32.dll',
  platforms: ['windows'],
  declarations: `${COM_TYPES}
HRESULT WINAPI CoInitialize(LPVOID pvReserved);
HRESULT WINAPI CoInitializeEx(LPVOID pvReserved, DWORD dwCoInit);
void WINAPI CoUninitialize(void);
HRESULT WINAPI CoInitializeSecurity(PSECURITY_DESCRIPTOR pSecDesc, LONG cAuthSvc,
  SOLE_AUTHENTICATION_SERVICE *asAuthSvc, void *pReserved1, DWORD dwAuthnLevel, DWORD dwImpLevel,
  void *pAuthList, DWORD dwCapabilities, void *pReserved3);
HRESULT WINAPI CoCreateInstance(REFCLSID rclsid, LPUNKNOWN pUnkOuter, DWORD dwClsContext, REFIID riid,
  LPVOID *ppv);
HRESULT WINAPI CoCreateInstanceEx(REFCLSID Clsid, LPUNKNOWN punkOuter, DWORD dwClsCtx, COSERVERINFO *pServerInfo,
  DWORD dwCount, MULTI_QI *pResults);
HRESULT WINAPI CoGetObject(LPCWSTR pszName, void *pBindOptions, REFIID riid, void **ppv);
HRESULT WINAPI CoSetProxyBlanket(LPUNKNOWN pProxy, DWORD dwAuthnSvc, DWORD dwAuthzSvc, OLECHAR *pServerPrincName,
  DWORD dwAuthnLevel, DWORD dwImpLevel, void *pAuthInfo, DWORD dwCapabilities);
LPVOID WINAPI CoTaskMemAlloc(SIZE_T cb);
LPVOID WINAPI CoTaskMemRealloc(LPVOID pv, SIZE_T cb);
void WINAPI CoTaskMemFree(LPVOID pv);
HRESULT WINAPI CoCreateGuid(GUID *pguid);
HRESULT WINAPI CLSIDFromString(LPCOLESTR lpsz, LPCLSID pclsid);
HRESULT WINAPI CLSIDFromProgID(LPCOLESTR lpszProgID, LPCLSID lpclsid);
HRESULT WINAPI IIDFromString(LPCOLESTR lpsz, LPIID lpiid);
int WINAPI StringFromGUID2(REFGUID rguid, LPOLESTR lpsz, int cchMax);
HRESULT WINAPI StringFromCLSID(REFCLSID rclsid, LPOLESTR *lplpsz);
HRESULT WINAPI OleInitialize(LPVOID pvReserved);
void WINAPI OleUninitialize(void);
`,
};

export const oleaut32: PrototypeModule = {
  name: 'oleaut32',
  library: 'oleaut32.dll',
  platforms: ['windows'],
  declarations: `
BSTR WINAPI SysAllocString(const OLECHAR *psz);
BSTR WINAPI SysAllocStringLen(const OLECHAR *strIn, UINT ui);
BSTR WINAPI SysAllocStringByteLen(LPCSTR psz, UINT len);
INT WINAPI SysReAllocString(BSTR *pbstr, const OLECHAR *psz);
void WINAPI SysFreeString(BSTR bstrString);
UINT WINAPI SysStringLen(BSTR pbstr);
UINT WINAPI SysStringByteLen(BSTR bstr);
void WINAPI VariantInit(VARIANTARG *pvarg);
HRESULT WINAPI VariantClear(VARIANTARG *pvarg);
HRESULT WINAPI VariantCopy(VARIANTARG *pvargDest, const VARIANTARG *pvargSrc);
HRESULT WINAPI VariantChangeType(VARIANTARG *pvargDest, const VARIANTARG *pvarSrc, USHORT wFlags, USHORT vt);
`,
};

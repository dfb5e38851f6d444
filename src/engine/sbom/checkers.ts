// Which libraries a binary carries and at which version, as data: one entry per library, no code per
// library. A checker fires on its `evidence` (strings only that library has); its version comes from the
// first `versions` pattern that matches, and bare version strings (`1.10.0`) must sit within `near` bytes
// of the evidence, since any library may hold a string like that.

export interface Checker {
  /** Package name as reported (SBOM `name`, CycloneDX component name, OSV package name). */
  name: string;
  /** CPE 2.3 vendor and product. */
  vendor: string;
  product: string;
  /** Package URL without the version. */
  purl: string;
  /** Any one of these strings (regexes over whole strings) shows the library is present. */
  evidence: RegExp[];
  /** One capture group: the version. Tried in order. */
  versions: RegExp[];
  /** Bare version strings count only this close (bytes, by address) to an evidence string. */
  near?: number;
  /** Needed libraries (DT_NEEDED, import DLLs) that mean a dynamic dependency on it. */
  libraries?: RegExp[];
}

const V = '(\\d+\\.\\d+(?:\\.\\d+)?(?:[a-z])?)';

export const CHECKERS: Checker[] = [
  {
    name: 'openssl',
    vendor: 'openssl',
    product: 'openssl',
    purl: 'pkg:generic/openssl',
    evidence: [/^OpenSSL \d+\.\d+\.\d+[a-z]? /, /^OPENSSL_\d/, /^ssl3_read_bytes$|^SSL_CTX_new$/],
    versions: [new RegExp(`^OpenSSL ${V}(?:-\\w+)? +\\d{1,2} \\w{3} \\d{4}`)],
    libraries: [/^libssl\.so|^libcrypto\.so|^libssl(-\d+)?(-x64)?\.dll$|^libcrypto(-\d+)?(-x64)?\.dll$/i],
  },
  {
    name: 'zlib',
    vendor: 'zlib',
    product: 'zlib',
    purl: 'pkg:generic/zlib',
    evidence: [/^ ?(de|in)flate \d+\.\d+(\.\d+)* Copyright/, /^incorrect header check$/],
    versions: [new RegExp(`^ ?(?:de|in)flate ${V} Copyright`)],
    libraries: [/^libz\.so|^zlib1\.dll$/i],
  },
  {
    name: 'bzip2',
    vendor: 'bzip',
    product: 'bzip2',
    purl: 'pkg:generic/bzip2',
    evidence: [/bzip2\/libbzip2/],
    versions: [new RegExp(`^${V}, \\d{1,2}-[A-Z][a-z]{2}-\\d{4}$`)],
    libraries: [/^libbz2\.so|^libbz2(-1)?\.dll$/i],
  },
  {
    name: 'zstd',
    vendor: 'facebook',
    product: 'zstandard',
    purl: 'pkg:github/facebook/zstd',
    evidence: [/^ZSTD_\w+$/, /^Unknown frame descriptor$|^Frame requires too much memory for decoding$/],
    versions: [new RegExp(`^zstd(?: command line interface)?.* v${V}`), new RegExp(`^${V}$`)],
    near: 4096,
    libraries: [/^libzstd\.so|^libzstd\.dll$/i],
  },
  {
    name: 'sqlite',
    vendor: 'sqlite',
    product: 'sqlite',
    purl: 'pkg:generic/sqlite',
    evidence: [/^SQLite format 3$/, /sqlite_master/],
    versions: [new RegExp(`^(3\\.\\d+\\.\\d+)$`)],
    near: 1 << 20,
    libraries: [/^libsqlite3\.so|^(lib)?sqlite3\.dll$/i],
  },
  {
    name: 'lz4',
    vendor: 'lz4_project',
    product: 'lz4',
    purl: 'pkg:github/lz4/lz4',
    evidence: [/^ERROR_(maxBlockSize_invalid|headerVersion_wrong|frameHeader_incomplete|contentChecksum_invalid)$/],
    versions: [new RegExp(`^(1\\.\\d+\\.\\d+)$`)],
    near: 64 * 1024,
    libraries: [/^liblz4\.so|^liblz4\.dll$/i],
  },
  {
    name: 'lmdb',
    vendor: 'openldap',
    product: 'lmdb',
    purl: 'pkg:generic/lmdb',
    evidence: [/^LMDB \d+\.\d+\.\d+/, /^MDB_INVALID: /],
    versions: [new RegExp(`^LMDB ${V}:`)],
    libraries: [/^liblmdb\.so/i],
  },
  {
    name: 'busybox',
    vendor: 'busybox',
    product: 'busybox',
    purl: 'pkg:generic/busybox',
    evidence: [/^BusyBox v\d/, /^BusyBox is a multi-call binary/, /BusyBox is copyrighted/],
    versions: [new RegExp(`^BusyBox v${V}`)],
  },
  {
    name: 'glibc',
    vendor: 'gnu',
    product: 'glibc',
    purl: 'pkg:generic/glibc',
    evidence: [/^Fatal glibc error: /, /^GNU C Library /],
    versions: [new RegExp(`^GNU C Library .*(?:release|stable release) version ${V}`)],
  },
  {
    name: 'musl',
    vendor: 'musl-libc',
    product: 'musl',
    purl: 'pkg:generic/musl',
    evidence: [/^musl libc/],
    versions: [new RegExp(`^musl libc(?: \\(\\w+\\))?\\s*Version ${V}`)],
  },
  {
    name: 'libpng',
    vendor: 'libpng',
    product: 'libpng',
    purl: 'pkg:generic/libpng',
    evidence: [/libpng version \d/, /^IHDR: CRC error$|^Not a PNG file$/],
    versions: [new RegExp(`libpng version ${V}`)],
    libraries: [/^libpng\d*\.so|^libpng\d*(-\d+)?\.dll$/i],
  },
  {
    name: 'libjpeg-turbo',
    vendor: 'libjpeg-turbo',
    product: 'libjpeg-turbo',
    purl: 'pkg:github/libjpeg-turbo/libjpeg-turbo',
    evidence: [/libjpeg-turbo version \d/],
    versions: [new RegExp(`libjpeg-turbo version ${V}`)],
    libraries: [/^libturbojpeg\.so/i],
  },
  {
    name: 'libjpeg',
    vendor: 'ijg',
    product: 'libjpeg',
    purl: 'pkg:generic/libjpeg',
    evidence: [/^Copyright \(C\) \d{4}, Thomas G\. Lane/, /Independent JPEG Group/],
    versions: [new RegExp(`^(\\d+[a-z]?)\\s+\\d{1,2}-[A-Z][a-z]{2}-\\d{4}$`)],
    near: 4096,
    libraries: [/^libjpeg\.so|^libjpeg-\d+\.dll$/i],
  },
  {
    name: 'curl',
    vendor: 'haxx',
    product: 'curl',
    purl: 'pkg:generic/curl',
    evidence: [/libcurl\/\d/, /^CLIENT libcurl \d/, /^curl_easy_\w+$/],
    versions: [new RegExp(`libcurl\\/${V}`), new RegExp(`^CLIENT libcurl ${V}`)],
    libraries: [/^libcurl(-gnutls)?\.so|^libcurl(-\d+)?(-x64)?\.dll$/i],
  },
  {
    name: 'mbedtls',
    vendor: 'arm',
    product: 'mbed_tls',
    purl: 'pkg:github/Mbed-TLS/mbedtls',
    evidence: [/^M[Bb]ed ?TLS \d/, /^mbedtls_\w+$/],
    versions: [new RegExp(`^M[Bb]ed ?TLS ${V}`)],
    libraries: [/^libmbedtls\.so|^libmbedcrypto\.so/i],
  },
  {
    name: 'expat',
    vendor: 'libexpat_project',
    product: 'libexpat',
    purl: 'pkg:github/libexpat/libexpat',
    evidence: [/^expat_\d+\.\d+\.\d+$/, /^XML_\w+$/],
    versions: [new RegExp(`^expat_${V}$`)],
    libraries: [/^libexpat\.so|^libexpat(-\d+)?\.dll$/i],
  },
  {
    name: 'pcre2',
    vendor: 'pcre',
    product: 'pcre2',
    purl: 'pkg:generic/pcre2',
    evidence: [/^pcre2_\w+$/, /^\\C is not allowed in a lookbehind assertion/],
    versions: [new RegExp(`^(10\\.\\d+) \\d{4}-\\d{2}-\\d{2}$`)],
    near: 64 * 1024,
    libraries: [/^libpcre2-\d+\.so/i],
  },
  {
    name: 'pcre',
    vendor: 'pcre',
    product: 'pcre',
    purl: 'pkg:generic/pcre',
    evidence: [/^pcre_\w+$/],
    versions: [new RegExp(`^(8\\.\\d+) \\d{4}-\\d{2}-\\d{2}$`)],
    near: 64 * 1024,
    libraries: [/^libpcre\.so/i],
  },
];

// Texts of the Collections, Search and Binaries operations (/v2 and /v3): sets of binaries, finding things by
// name, and what is known of an uploaded binary.
import { V3_ERRORS, type OperationDoc } from './operation-doc.js';

/** docs/decisions.md, "Collections hold binaries" and "Collection scopes". */
const MEMBERS =
  'Members are binary ids (`binary_id` of an analysis, not `analysis_id`) of analyses the caller can see: ' +
  'any other answers 404 naming it, and nothing changes.';
const COLLECTION_OWNER =
  'Owner only: anyone else who can see the collection gets 403; one they cannot see answers 404.';
const SCOPES =
  "Scopes: `PRIVATE` (the owner alone), `TEAM` (the owner and the owner's team), `PUBLIC` and `PROTECTED` " +
  '(everyone).';
/** The /v2 searches' paging (SearchService.pageWindow). */
const V2_PAGE =
  'Paged by `page` and `page_size` (at most 100 a page; `meta.pagination` gives the size used and whether ' +
  'another page follows).';
const V3_PAGE = 'Paged by `limit` and `offset`; the body is `{results, page_number, page_size, has_next_page}`.';

export const collectionsDocs = {
  listCollections: {
    summary: 'List collections',
    description: [
      'Collections the caller can see, each with owner, scope, tags, model and size (members the caller can',
      'see), newest first by default. `search_term` matches the name or description; `filters` narrow (all apply):',
      '`official_only` (owned by an operator), `user_only`, `team_only`, `public_only`, `hide_empty`. Paged by',
      '`limit` (5–50, default 20) and `offset`; sorted by `order_by` and `order`.',
    ].join('\n'),
  },
  createCollection: {
    summary: 'Create a collection',
    description: [
      'Creates a collection of the caller and answers it (200, as the reference does). `model_id` is required:',
      "a position (from 1) in `GET /v2/models`, the collection's label for model filters; binaries of other",
      `models are accepted. \`collection_scope\` defaults to \`PRIVATE\`. ${SCOPES} ${MEMBERS}`,
    ].join('\n'),
    examples: {
      references: {
        summary: 'Reference builds for matching, shared with the team',
        value: {
          collection_name: 'openssl 3.0 x86-64',
          description: 'Builds with symbols, for naming stripped functions',
          collection_scope: 'TEAM',
          model_id: 2,
          tags: ['openssl'],
          binaries: [12, 13],
        },
      },
      empty: {
        summary: 'An empty private collection',
        value: { collection_name: 'campaign 7', description: 'Samples of campaign 7', model_id: 2 },
      },
    },
  },
  getCollection: {
    summary: 'Get a collection',
    description: [
      'The collection; with `include_tags` its tags, with `include_binaries` a page of its members the caller',
      'can see (`page_number`, `page_size` 1–100, default 10; `binary_search_str` matches their names), with',
      '`meta.pagination`. A collection the caller cannot see answers 404.',
    ].join('\n'),
  },
  updateCollection: {
    summary: 'Rename a collection or change its description or scope',
    description: [
      `Changes the fields given (null or absent leaves a field as it is) and answers the collection. ${SCOPES}`,
      COLLECTION_OWNER,
    ].join('\n'),
    examples: { share: { summary: 'Share with everyone', value: { collection_scope: 'PUBLIC' } } },
  },
  deleteCollection: {
    summary: 'Delete a collection',
    description: `Deletes the collection (not its binaries' analyses) and answers \`true\`. ${COLLECTION_OWNER}`,
  },
  updateCollectionBinaries: {
    summary: "Replace a collection's binaries",
    description: `Makes the list the collection's members and answers them. ${MEMBERS} ${COLLECTION_OWNER}`,
    examples: { three: { summary: 'Three binaries', value: { binaries: [12, 13, 14] } } },
  },
  updateCollectionTags: {
    summary: "Replace a collection's tags",
    description: `Makes the list the collection's tags and answers them. ${COLLECTION_OWNER}`,
    examples: { two: { summary: 'Two tags', value: { tags: ['openssl', 'reference'] } } },
  },
  v3ListCollections: {
    summary: 'List collections (/v3)',
    description: [
      'As `GET /v2/collections`, in the /v3 shape: `limit` 1–50 (default 20), sorted by `order_by` (default',
      `\`collection\`, the name) and \`order\` (default \`ASC\`). ${V3_PAGE} ${V3_ERRORS}`,
    ].join('\n'),
  },
  v3CreateCollection: {
    summary: 'Create a collection (/v3)',
    description: [
      'Creates a collection of the caller and answers 201 with it, its members and tags. `collection_scope` is',
      "required; there is no `model_id`: the collection takes its first binary's model (none without one).",
      `${SCOPES} ${MEMBERS} ${V3_ERRORS}`,
    ].join('\n'),
    examples: {
      references: {
        summary: 'A private collection of two binaries',
        value: {
          collection_name: 'openssl 3.0 x86-64',
          description: 'Builds with symbols, for naming stripped functions',
          collection_scope: 'PRIVATE',
          binaries: [12, 13],
          tags: ['openssl'],
        },
      },
    },
  },
  v3PatchCollection: {
    summary: 'Update a collection (/v3)',
    description: [
      'Changes the fields given (names and descriptions may not be empty) and answers the collection with its',
      `\`binary_count\`. ${COLLECTION_OWNER} ${V3_ERRORS}`,
    ].join('\n'),
    examples: { rename: { summary: 'Rename', value: { collection_name: 'openssl 3.0 references' } } },
  },
  v3PatchCollectionBinaries: {
    summary: "Replace a collection's binaries (/v3)",
    description: [
      "Makes the list the collection's members (`null` empties it) and answers the members the caller can see.",
      `${MEMBERS} ${COLLECTION_OWNER} ${V3_ERRORS}`,
    ].join('\n'),
    examples: { two: { summary: 'Two binaries', value: { binaries: [12, 13] } } },
  },
  v3AddCollectionBinaries: {
    summary: 'Add binaries to a collection (/v3)',
    description: `Adds the binaries to the collection's members; answers 204. ${MEMBERS} ${COLLECTION_OWNER} ${V3_ERRORS}`,
    examples: { one: { summary: 'One more binary', value: { binaries: [14] } } },
  },
  searchFunctions: {
    summary: 'Search functions',
    description: [
      'Functions whose name contains `partial_name` (case-insensitive), optionally of one `model_name`, in',
      `analyses the caller can see, with their binary, model and owner. ${V2_PAGE}`,
    ].join('\n'),
  },
  searchBinaries: {
    summary: 'Search binaries',
    description: [
      'Binaries of analyses the caller can see whose name contains `partial_name` or whose SHA-256 contains',
      "`partial_sha256`, carrying every one of `tags`, of `model_name`; `user_files_only` keeps the caller's",
      `own. Newest first. ${V2_PAGE}`,
    ].join('\n'),
  },
  searchCollections: {
    summary: 'Search collections',
    description: [
      "Collections the caller can see by part of their name, or of a member's name or SHA-256, by `tags`",
      '(all of them), `model_name` (404 when it is not a model) and `filters`; sorted by `order_by` and',
      `\`order_by_direction\` (default newest first). ${V2_PAGE}`,
    ].join('\n'),
  },
  searchTags: {
    summary: 'Search tags',
    description: [
      'Tags whose name contains `partial_name` (required; case-insensitive), in use on an analysis or a',
      `collection the caller can see, by name, each with its \`tag_id\`. ${V2_PAGE}`,
    ].join('\n'),
  },
  getBinaryDetails: {
    summary: "Get a binary's file details",
    description: [
      'Facts about the file in the words of `rabin2 -I`: class (`ELF64`, `PE32+`, `MACH064`, `RAW`, …),',
      'architecture, bits, machine, OS, type, subsystem, language, whether it is static and stripped, its',
      'entropy, size and hashes (MD5, SHA-1, SHA-256, CRC32, ssdeep, TLSH), and when this service first saw it.',
      'Before its analysis finishes the hashes are computed from the stored file and `language` is',
      `\`unknown\`. A binary of an analysis the caller cannot see answers 404.`,
    ].join('\n'),
  },
  getBinaryExternals: {
    summary: 'Get threat-intelligence data on a binary',
    description: [
      "The reference's VirusTotal (`vt`) and MalwareBazaar (`mb`) data. Binlens makes no outside calls, so",
      'both are empty objects and both timestamps are when this service first saw the file. A binary of an',
      'analysis the caller cannot see answers 404.',
    ].join('\n'),
  },
  getRelatedBinaries: {
    summary: "Get a binary's children and parent",
    description: [
      'The binaries found inside this one — the memory dumps and dropped executables of its dynamic',
      'execution, the files of a firmware image — and the binary it was itself found in (`parent`, null when',
      'none or not visible to the caller). Each has its `binary_id`, SHA-256, name, and `analysis_id` once it',
      'is analysed: executables the engine has a model for are analysed at once; any other becomes analysed',
      'when the one it was found for creates an analysis of its SHA-256. A child is visible to the one it was',
      'found for and to everyone who can see its parent; any other binary id answers 404.',
      '',
      '**Binlens extensions:** each relative says where in its parent it was found (`location`: a dump name,',
      'or offsets and formats from the image down) and what found it there (`origin`: `dump` or `firmware`;',
      'both null for a binary found in none); a firmware image carries its `task_id`',
      '(`GET /v2/firmware/get-binaries/{task_id}`) when the caller may see the task.',
    ].join('\n'),
  },
  getBinaryRelatedStatus: {
    summary: "Get the status of the task that finds the binary's children",
    description: [
      "`PENDING` (the analysis's dynamic execution is queued or running), `COMPLETED` (its children are",
      'listed), `ERROR` (it could not run) or `NONE` (no task looks inside this binary). Visibility as for',
      '`related`.',
    ].join('\n'),
  },
  v3SearchBinaries: {
    summary: 'Search binaries (/v3)',
    description: [
      'As `GET /v2/search/binaries`, and at least one of `partial_name`, `partial_sha256`, `tags` and',
      '`model_name` is required (422 otherwise); `user_ids` keeps the analyses of those users,',
      `\`exclude_binary_id\` leaves one out. \`limit\` 1–100, default 10. ${V3_PAGE} ${V3_ERRORS}`,
    ].join('\n'),
  },
} satisfies Record<string, OperationDoc>;

import type { Static } from '@sinclair/typebox';
import type { FunctionListItem, FunctionsListQuery, StringsQuery } from '../contracts/index.js';
import type { FunctionRow, Store } from '../store/index.js';
import { visibleAnalysis, visibleFunction, type Caller } from './access.js';

export interface Page {
  page_size: number;
  page_number: number;
  has_next_page: boolean;
}

const hex = (v: number) => `0x${v.toString(16)}`;

/** Fetches one row more than the page to tell whether another page follows. */
export function paged<T>(rows: T[], page: number, size: number): { items: T[]; page: Page } {
  return {
    items: rows.slice(0, size),
    page: { page_size: size, page_number: page, has_next_page: rows.length > size },
  };
}

const listItem = (f: FunctionRow): Static<typeof FunctionListItem> => ({
  id: f.id,
  name: f.name,
  name_source_type: f.name_source_type as 'SYSTEM',
  name_source: {
    type: f.name_source_type as 'SYSTEM',
    function_id: f.name_source_function_id,
    binary_id: f.name_source_binary_id,
    analysis_id: f.name_source_analysis_id,
  },
  mangled_name: f.mangled_name,
  vaddr: f.vaddr,
  size: f.size,
  debug: f.debug === 1,
});

/** Functions, call graph, strings and cross-references of analyses the caller can see. */
export class FunctionsService {
  constructor(private readonly store: Store) {}

  async list(caller: Caller, analysisId: number, page = 1, size = 1000) {
    await visibleAnalysis(this.store, caller, analysisId);
    const rows = await this.store.functions.page(analysisId, { offset: (page - 1) * size, limit: size + 1 });
    const p = paged(rows, page, size);
    return { data: { functions: p.items.map(listItem) }, page: p.page };
  }

  async legacyList(caller: Caller, analysisId: number, q: Static<typeof FunctionsListQuery>) {
    await visibleAnalysis(this.store, caller, analysisId);
    const page = q.page ?? 1;
    const size = q.page_size ?? 1000;
    const rows = await this.store.functions.page(analysisId, {
      offset: (page - 1) * size,
      limit: size + 1,
      search: q.search_term ?? null,
      min: q.min_v_addr ?? null,
      max: q.max_v_addr ?? null,
    });
    const p = paged(rows, page, size);
    const vectors =
      (q.include_embeddings ?? true) ? await this.store.similarity.vectors(p.items.map((f) => f.id)) : null;
    const functions = p.items.map((f) => {
      const v = vectors?.get(f.id);
      return {
        function_id: f.id,
        function_name: f.name,
        function_mangled_name: f.mangled_name,
        function_vaddr: f.vaddr,
        function_size: f.size,
        debug: f.debug === 1,
        // Seven significant digits are all a float32 holds; more would only lengthen the text.
        ...(v ? { embedding: Array.from(v, (x) => Number(x.toPrecision(7))) } : {}),
      };
    });
    return { data: { functions }, page: p.page };
  }

  async maps(caller: Caller, analysisId: number) {
    await visibleAnalysis(this.store, caller, analysisId);
    const function_map: Record<string, number> = {};
    const inverse_function_map: Record<string, number> = {};
    const name_map: Record<string, string> = {};
    for (const f of await this.store.functions.map(analysisId)) {
      function_map[String(f.id)] = f.vaddr;
      inverse_function_map[String(f.vaddr)] = f.id;
      name_map[String(f.vaddr)] = f.name;
    }
    return { function_maps: { function_map, inverse_function_map, name_map } };
  }

  async detail(caller: Caller, id: number) {
    const { f, analysis } = await visibleFunction(this.store, caller, id);
    return {
      function_id: f.id,
      function_name: f.name,
      function_name_mangled: f.mangled_name,
      function_vaddr: f.vaddr,
      function_size: f.size,
      analysis_id: analysis.id,
      binary_id: analysis.binary_id,
      binary_name: analysis.binary_name,
      sha_256_hash: analysis.sha256,
      debug_hash: analysis.debug_hash,
      debug: f.debug === 1,
    };
  }

  async calleesCallers(caller: Caller, id: number) {
    const { f, analysis } = await visibleFunction(this.store, caller, id);
    const [callees, callers] = await Promise.all([
      this.store.functions.callees(f.id),
      this.store.functions.callers(f.id),
    ]);
    const dashboard = (fid: number | null) => (fid === null ? null : `/analyses/${analysis.id}/functions/${fid}`);
    const seenCallee = new Set<string>();
    const seenCaller = new Set<number>();
    return {
      base_address: analysis.base_address ?? 0,
      callees: callees
        .filter((c) => {
          const key = `${c.callee_id}:${c.callee_vaddr}:${c.callee_name}`;
          return !seenCallee.has(key) && seenCallee.add(key);
        })
        .map((c) => ({
          function_id: c.callee_id ?? 0,
          matched_function_id: null,
          dashboard_url: dashboard(c.callee_id),
          is_external: c.is_external === 1,
          callee_name: c.callee_name,
          callee_vaddr: c.callee_vaddr >= 0 ? hex(c.callee_vaddr) : '',
        })),
      callers: callers
        .filter((c) => !seenCaller.has(c.caller_id) && seenCaller.add(c.caller_id))
        .map((c) => ({
          function_id: c.caller_id,
          matched_function_id: null,
          dashboard_url: dashboard(c.caller_id),
          is_external: false,
          caller_name: c.caller_name,
          caller_vaddr: hex(c.caller_vaddr),
        })),
    };
  }

  async bulkCalleesCallers(caller: Caller, ids: number[]) {
    const out = [];
    for (const id of [...new Set(ids)].slice(0, 1000)) out.push(await this.calleesCallers(caller, id));
    return out;
  }

  async strings(caller: Caller, analysisId: number, q: Static<typeof StringsQuery>) {
    await visibleAnalysis(this.store, caller, analysisId);
    const page = q.page ?? 1;
    const size = Math.min(q.page_size ?? 100, 100_000);
    const r = await this.store.strings.page(analysisId, {
      offset: (page - 1) * size,
      limit: size,
      search: q.search ?? null,
      functionSearch: q.function_search ?? null,
      orderBy: q.order_by ?? 'value',
      order: q.sort_order === 'DESC' ? 'desc' : 'asc',
    });
    const byString = new Map<number, { function_id: number; function_vaddr: number }[]>();
    for (const u of r.users) {
      const list = byString.get(u.string_vaddr) ?? [];
      list.push({ function_id: u.id, function_vaddr: u.vaddr });
      byString.set(u.string_vaddr, list);
    }
    const strings = r.rows.map((s) => ({
      value: s.value,
      functions: byString.get(s.vaddr) ?? [],
      source: s.source as 'SYSTEM',
    }));
    return {
      data: { strings, total_strings: r.total },
      page: { page_size: size, page_number: page, has_next_page: page * size < r.total },
    };
  }

  async stringsStatus(caller: Caller, analysisId: number) {
    const a = await visibleAnalysis(this.store, caller, analysisId);
    const status =
      { Complete: 'COMPLETED', Error: 'FAILED', Processing: 'RUNNING', Queued: 'PENDING' }[a.status] ?? 'UNINITIALISED';
    return { status: status as 'COMPLETED' };
  }

  async functionStrings(caller: Caller, id: number, q: { page?: number; page_size?: number; search?: string }) {
    const { f } = await visibleFunction(this.store, caller, id);
    const page = q.page ?? 1;
    const size = Math.min(q.page_size ?? 100, 100_000);
    const r = await this.store.strings.ofFunction(f.id, {
      offset: (page - 1) * size,
      limit: size,
      search: q.search ?? null,
    });
    const strings = r.rows.map((s) => ({ value: s.value, vaddr: s.vaddr, source: s.source as 'SYSTEM' }));
    return {
      data: { strings, total_strings: r.total },
      page: { page_size: size, page_number: page, has_next_page: page * size < r.total },
    };
  }

  async xrefs(caller: Caller, analysisId: number, vaddr: number) {
    await visibleAnalysis(this.store, caller, analysisId);
    const [to, from] = await Promise.all([
      this.store.functions.xrefsTo(analysisId, vaddr),
      this.store.functions.xrefsFrom(analysisId, vaddr),
    ]);
    const flags = (kind: string) => ({
      is_call: kind === 'call',
      is_data: kind !== 'call',
      is_string: kind === 'string',
      is_scalar: false,
    });
    return {
      xref_to_list: to.map((x) => ({ value: hex(x.to_vaddr), ...flags(x.kind), xref_from: hex(x.from_vaddr) })),
      xref_from_list: from.map((x) => ({ value: hex(x.from_vaddr), ...flags(x.kind), xref_to: hex(x.to_vaddr) })),
    };
  }
}

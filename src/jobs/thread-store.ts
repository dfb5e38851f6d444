// The database connection of a worker thread, which stores what the engine produced there: opened on the
// thread's first task and closed with the thread (SQLite in WAL mode takes a second connection; PostgreSQL a
// pool per thread).
import { createStore, openDatabase, type Store } from '../store/index.js';

let opened: { url: string; store: Store } | null = null;

export function threadStore(url: string): Store {
  if (opened?.url !== url) {
    void opened?.store.driver.close();
    opened = { url, store: createStore(openDatabase(url)) };
  }
  return opened.store;
}

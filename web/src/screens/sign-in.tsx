import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { errorOf } from '../api/client';
import { rememberKey } from '../auth/key';

/** The key is checked against GET /v2/users/me before it is kept. */
export function SignInScreen() {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const search = useSearch();
  const [, navigate] = useLocation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const response = await fetch('/v2/users/me', { headers: { Authorization: key.trim() } });
      if (!response.ok) throw errorOf(await response.json().catch(() => null), response.status);
      rememberKey(key.trim());
      const next = new URLSearchParams(search).get('next');
      navigate(next && next.startsWith('/') && next !== '/sign-in' ? next : '/analyses');
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <form onSubmit={submit} className="card">
        <h1>Binlens</h1>
        <p>
          Sign in with your API key. The server printed the admin's key at its first start;
          <code> binlens users create NAME</code> makes more.
        </p>
        <label>
          API key
          <input
            type="password"
            autoComplete="current-password"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            required
            autoFocus
          />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

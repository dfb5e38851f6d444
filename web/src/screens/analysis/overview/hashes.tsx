import { Fragment } from 'react';
import { CopyButton } from '../../../components/copy-button';
import type { BinaryDetails } from './queries';

export function Hashes({ details }: { details: BinaryDetails }) {
  const rows: [string, string | null][] = [
    ['SHA-256', details.sha256],
    ['SHA-1', details.sha1],
    ['MD5', details.md5],
    ['CRC-32', details.crc32],
    ['TLSH', details.tlsh],
    ['ssdeep', details.ssdeep],
  ];
  return (
    <section className="card" aria-labelledby="overview-hashes">
      <h2 id="overview-hashes">Hashes</h2>
      <dl className="facts">
        {rows.map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>
              {value ? (
                <span className="hash-value">
                  <code>{value}</code>
                  <CopyButton value={value} what={name} />
                </span>
              ) : (
                <span className="muted">none (too little or too uniform content)</span>
              )}
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

import { useId, useRef, useState } from 'react';
import type { Tag } from '../../../types/api.ts';
import { labelStrings as s } from '../strings.ts';
import { codeProblems } from './tag-codes.ts';

export interface TagCodeNoticeProps {
  tags: readonly Tag[];
  /**
   * Gives every tag without a code a default one and answers their names; absent for a user who
   * may not change the line.
   */
  onGiveCodes?: () => string[];
}

/**
 * Review & Save: the tags a phone cannot scan, by name (no code), and codes two tags share (a scan
 * ticks the first only), with the way to fix them. Nothing when every tag has a code of its own.
 */
export function TagCodeNotice({ tags, onGiveCodes }: TagCodeNoticeProps) {
  const headingId = useId();
  const givenRef = useRef<HTMLParagraphElement>(null);
  const [given, setGiven] = useState<string[]>([]);
  const { missing, shared } = codeProblems(tags);

  const giveCodes = () => {
    if (!onGiveCodes) return;
    setGiven(onGiveCodes());
    // The button goes with the tags it named: the focus moves to what it did.
    requestAnimationFrame(() => givenRef.current?.focus());
  };

  return (
    <>
      {(missing.length > 0 || shared.length > 0) && (
        <section className="notice notice-caution tag-code-notice" aria-labelledby={headingId}>
          <h3 id={headingId}>{s.codesTitle}</h3>
          <ul>
            {missing.map((name, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat; the list is not reordered
              <li key={`missing-${index}`}>
                <bdi>{name}</bdi>
                {s.hasNoCode}
              </li>
            ))}
            {shared.map(({ code, names }) => (
              <li key={`shared-${code}`}>{s.sharedCode(names, code)}</li>
            ))}
          </ul>
          {onGiveCodes && (
            <>
              {missing.length > 0 && (
                <button type="button" className="btn btn-primary" onClick={giveCodes}>
                  {s.giveCodes}
                </button>
              )}
              <p>{s.editHint}</p>
            </>
          )}
        </section>
      )}
      {given.length > 0 && (
        <p ref={givenRef} tabIndex={-1} className="notice" role="status">
          {s.given(given)}
        </p>
      )}
    </>
  );
}

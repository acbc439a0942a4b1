/**
 * A unified diff, each line coloured by its first character (+ added, - removed, @@ hunk).
 */
import type { ReactElement } from 'react';

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-del';
  return 'diff-ctx';
}

/** Renders `diff`; an empty diff says so. */
export function Diff({ diff }: { diff: string }): ReactElement {
  if (diff.trim() === '') return <pre className="diff diff-empty">(no textual diff)</pre>;
  const lines = diff.replace(/\n$/, '').split('\n');
  return (
    <pre className="diff" data-testid="diff">
      {lines.map((line, i) => (
        <span key={i} className={lineClass(line)}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/**
 * The app's mark (the same drawing as public/favicon.svg, which the browser's tab shows), drawn inline so the header
 * has it in the first frame of a new tab instead of waiting for an image request.
 */
export function ShelterDeskMark({ size }: { size: number }) {
  return (
    <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#21846a" />
      <path d="M32 12 11 29v22a3 3 0 0 0 3 3h36a3 3 0 0 0 3-3V29z" fill="#e9f8f4" />
      <g fill="#07735a">
        <ellipse cx="32" cy="44" rx="7.5" ry="6" />
        <ellipse cx="22.5" cy="36" rx="3.4" ry="4.2" />
        <ellipse cx="28.5" cy="31" rx="3.4" ry="4.2" />
        <ellipse cx="35.5" cy="31" rx="3.4" ry="4.2" />
        <ellipse cx="41.5" cy="36" rx="3.4" ry="4.2" />
      </g>
    </svg>
  );
}

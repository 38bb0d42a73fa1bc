// Which floor plan a report's coverage picture is drawn on, in the words the report page and the
// PDF both print (a pure module without imports, so the web app can bundle it).

/** 'missing' when the image's file is gone; null when the line had no image. */
export function coverageSource(coverage: { asSigned: boolean; floorplanSha256: string | null }) {
  const plan = coverage.asSigned
    ? 'the floor plan kept with the signature'
    : 'the line’s floor plan as it is now';
  const image =
    coverage.floorplanSha256 === null ? 'no image' : `image SHA-256 ${coverage.floorplanSha256}`;
  return `Drawn on ${plan} (${image}).`;
}

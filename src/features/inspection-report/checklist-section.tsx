import { coverageSource } from '../../../server/schemas/coverage-source.ts';
import { TableScroll } from '../../components/table-scroll.tsx';
import { segment } from '../../lib/api-client.ts';
import type { Coverage, InspectionReport } from '../../types/api.ts';
import { reportStrings as s } from './strings.ts';

const secondsText = (value: number | null) => (value === null ? '—' : `${value.toFixed(2)} s`);

/** The floor plan with the path and the zones, in image pixels scaled to the width available. */
function CoveragePicture({ coverage }: { coverage: Coverage }) {
  const points = coverage.path.map(([x, y]) => `${x},${y}`).join(' ');
  const stroke = Math.max(coverage.width, coverage.height) / 250;
  return (
    <figure className="report-coverage">
      <svg
        viewBox={`0 0 ${coverage.width} ${coverage.height}`}
        role="img"
        aria-label={`Coverage: ${coverage.zones.filter((z) => z.visited).length} of ${coverage.zones.length} hot zones visited`}
      >
        {coverage.imageUrl && (
          <image
            href={coverage.imageUrl}
            width={coverage.width}
            height={coverage.height}
            opacity={0.6}
          />
        )}
        {coverage.zones.map((zone) => (
          <rect
            key={`${zone.name}-${zone.x}-${zone.y}`}
            x={zone.x}
            y={zone.y}
            width={zone.width}
            height={zone.height}
            className={zone.visited ? 'zone-visited' : 'zone-unvisited'}
            strokeWidth={stroke}
          >
            <title>{`${zone.name} (${zone.importance}): ${zone.visited ? 'visited' : 'not visited'}`}</title>
          </rect>
        ))}
        <polyline points={points} className="coverage-path" strokeWidth={stroke} />
        {coverage.tags.map((tag) => (
          <circle
            key={`${tag.name}-${tag.x}-${tag.y}`}
            cx={tag.x}
            cy={tag.y}
            r={stroke * 2.5}
            className={tag.scanned ? 'tag-scanned' : 'tag-missed'}
          >
            <title>{`${tag.name}: ${tag.scanned ? 'scanned' : 'not scanned'}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="muted">
        {s.coverageLegend} {coverageSource(coverage)}
      </figcaption>
    </figure>
  );
}

/** Each tag scanned or not (when, how, its keyframe); each hot zone visited or not (time inside). */
export function ChecklistSection({ report }: { report: InspectionReport }) {
  const { tags, zones } = report.checklist;
  return (
    <section className="report-panel" aria-labelledby="report-checklist">
      <h2 id="report-checklist">{s.checklist}</h2>
      {report.pathMessage && <p className="report-warning">{report.pathMessage}</p>}
      <p className="muted">{s.scannedHow}</p>
      <TableScroll label={s.tags}>
        <table className="report-table">
          <caption>{s.tags}</caption>
          <thead>
            <tr>
              <th scope="col">Tag</th>
              <th scope="col">Scanned</th>
              <th scope="col">Time</th>
              <th scope="col">How</th>
              <th scope="col">Keyframe</th>
            </tr>
          </thead>
          <tbody>
            {tags.map((tag) => (
              <tr key={tag.index} className={tag.scanned === false ? 'row-flagged' : undefined}>
                <th scope="row">
                  {tag.name}
                  {tag.qrCode && <span className="muted"> {tag.qrCode}</span>}
                </th>
                <td>{tag.scanned === null ? s.tagNotAssessable : tag.scanned ? 'Yes' : 'No'}</td>
                <td>{secondsText(tag.time)}</td>
                <td>{tag.source === 'qr' ? 'QR code' : tag.source === 'path' ? 'Path' : '—'}</td>
                <td>
                  {tag.keyframe ? (
                    <img
                      className="report-thumb"
                      src={`/api/keyframes/${segment(tag.keyframe.subfolder)}/${segment(tag.keyframe.filename)}`}
                      alt={`Keyframe at ${tag.keyframe.filename.replace(/\.png$/, '')} s`}
                      loading="lazy"
                    />
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <TableScroll label={s.hotZones}>
        <table className="report-table">
          <caption>{s.hotZones}</caption>
          <thead>
            <tr>
              <th scope="col">Zone</th>
              <th scope="col">Importance</th>
              <th scope="col">Visited</th>
              <th scope="col">Time inside</th>
            </tr>
          </thead>
          <tbody>
            {zones.map((zone) => (
              <tr key={zone.index} className={zone.visited ? undefined : 'row-flagged'}>
                <th scope="row">{zone.name}</th>
                <td>{zone.importance}</td>
                <td>{zone.visited === null ? s.notAssessable : zone.visited ? 'Yes' : 'No'}</td>
                <td>{zone.visited ? secondsText(zone.secondsInside) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {report.coverage && (
        <>
          <h3>{s.coverage}</h3>
          <CoveragePicture coverage={report.coverage} />
        </>
      )}
    </section>
  );
}

// The analysis loop from outside: a service account posts a recording with the documented script
// (scripts/post-video.ts), the server analyses it by itself, an external SLAM/detector posts its
// results, and the video page shows the path and the detections; /analysis shows the queue and
// passes axe (WCAG 2.2 AA).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { makeTestVideo } from '../support/test-video.ts';
import { axeViolations } from './support/axe.ts';
import { newContext } from './support/browser.ts';
import { setUpE2e } from './support/fixture.ts';
import { repoRoot } from './support/web-build.ts';

const e2e = setUpE2e();

interface Row {
  videoId: string;
  job: { state: string; error: string | null; summary: { keyframeImages: number } | null } | null;
}

/** A walk round a rectangle on Bottling Line 2's plan (metres), a line every 0.1 s, 12 s. */
function keyframesText(imageTimes: number[]): string {
  const lines: string[] = [];
  for (let i = 0; i <= 120; i++) {
    const t = i / 10;
    const f = t / 12;
    const [x, y] = f < 0.5 ? [3 + 28 * f, 3] : [17, 3 + 20 * (f - 0.5)];
    const image = imageTimes.includes(t) ? ` ${t.toFixed(3)}.png` : '';
    lines.push(`${i} ${x.toFixed(3)} ${y.toFixed(3)} ${t.toFixed(3)}${image}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('analysis', () => {
  test('a posted recording is analysed, external results show on the video page, /analysis passes axe', async () => {
    const { admin, server } = e2e;
    const { key } = await admin.call<{ key: string }>('POST', '/api/service-accounts', {
      name: 'E2E SLAM',
    });
    // Posted for the line alone: every demo inspection has its video (a submit creates it), and
    // linking one to an inspection is server/routes/ingest.test.ts's.
    const lines = await admin.call<{ _id: string; name: string }[]>('GET', '/api/line-clearances');
    const line = lines.find((l) => l.name === 'Bottling Line 2');
    if (!line) throw new Error('the demo data has no Bottling Line 2');

    const file = makeTestVideo(12);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/post-video.ts',
        '--server',
        server.baseUrl,
        '--line',
        line._id,
        file,
      ],
      { cwd: repoRoot, env: { ...process.env, LC_API_KEY: key } },
    );
    const { videoId } = JSON.parse(stdout) as { videoId: string };

    let row: Row | undefined;
    for (const end = Date.now() + 120_000; Date.now() < end; ) {
      row = (await admin.call<Row[]>('GET', '/api/analysis')).find((r) => r.videoId === videoId);
      if (row?.job?.state === 'completed' || row?.job?.state === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(row?.job?.state, row?.job?.error ?? '').toBe('completed');
    expect(row?.job?.summary?.keyframeImages).toBe(12);

    // The pipeline's own keyframe images, re-posted with an external path and detections.
    const image = async (name: string) => {
      const res = await fetch(`${server.baseUrl}/api/keyframes/${videoId}/${name}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer()).toString('base64');
    };
    const put = await fetch(`${server.baseUrl}/api/ingest/videos/${videoId}/analysis`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        analysisVersion: 'e2e-slam 1.0',
        keyframes: keyframesText([0, 3]),
        calibration: {
          slamPoints: [
            [0, 0],
            [20, 0],
            [0, 16],
          ],
          floorplanPoints: [
            [0, 0],
            [1000, 0],
            [0, 800],
          ],
          forceAffine: true,
          yAxisFlip: false,
        },
        detector: { name: 'e2e-detector', version: '1', threshold: 0.5 },
        predictions: [
          {
            filename: '3.000.png',
            class_labels: ['tool'],
            confs: [0.87],
            boxes_normalized: [[0.2, 0.3, 0.5, 0.6]],
          },
        ],
        images: [
          { filename: '0.000.png', data: await image('0.000.png') },
          { filename: '3.000.png', data: await image('3.000.png') },
        ],
      }),
    });
    expect(put.status, await put.clone().text()).toBe(200);

    const context = await newContext(e2e.browser, { baseUrl: server.baseUrl, token: admin.token });
    try {
      const page = await context.newPage();
      await page.goto(`/video/${videoId}`);
      await page.getByRole('heading', { level: 1, name: 'Video Analysis' }).waitFor();
      await page.getByRole('img', { name: 'Floor plan with the inspection path' }).waitFor();
      await page
        .locator('.va-main .va-detections')
        .getByRole('button', { name: /^3\.000 s/ })
        .waitFor();
      for (const message of ['No path points loaded.', 'Error loading keyframes data.']) {
        expect(await page.getByText(message).count()).toBe(0);
      }

      await page.goto('/analysis');
      await page.getByRole('heading', { level: 1, name: 'Analysis' }).waitFor();
      await page
        .getByRole('link', { name: /^Open video: Bottling Line 2/ })
        .first()
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});

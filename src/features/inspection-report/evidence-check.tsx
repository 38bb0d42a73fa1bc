import { useState } from 'react';
import type { EvidenceCheck } from '../../../server/schemas/reports.ts';
import { RunButton } from '../../components/run-button.tsx';
import { failureText } from '../../lib/run-action.ts';
import { toastError } from '../../stores/toasts.ts';
import { checkEvidence } from './api/check-evidence.ts';
import { reportStrings as s } from './strings.ts';

const words = s.evidence;

/** The check's answer in words, and whether any file differs from what it should be. */
export function evidenceCheckText(check: EvidenceCheck): { text: string; differs: boolean } {
  const { video, keyframeImages: images } = check;
  if (video?.state === 'matches' && images?.state === 'matches') {
    return { text: words.allMatch(images.count), differs: false };
  }
  const videoText = !video
    ? words.noVideo
    : video.state === 'matches'
      ? words.videoMatches
      : video.state === 'differs'
        ? words.videoDiffers(video.sha256 ?? '')
        : video.state === 'missing'
          ? words.videoMissing
          : words.videoUnverified;
  const imagesText =
    images &&
    {
      matches: words.imagesMatch(images.count),
      differs: words.imagesDiffer,
      none: words.imagesNone,
      'not-kept': words.imagesNotKept,
    }[images.state];
  return {
    text: imagesText ? `${videoText} ${imagesText}` : videoText,
    differs:
      video?.state === 'differs' || video?.state === 'missing' || images?.state === 'differs',
  };
}

/**
 * 'Check evidence files': hashes the video file and (signed) the keyframe images again on the
 * server, which the report cannot afford on every read (docs/signatures.md), and says the answer.
 */
export function EvidenceCheckButton({ inspectionId }: { inspectionId: string }) {
  const [answer, setAnswer] = useState<{ text: string; differs: boolean } | null>(null);
  const run = async () => {
    try {
      setAnswer(evidenceCheckText(await checkEvidence(inspectionId)));
    } catch (error) {
      const text = failureText(s.checkEvidenceFailed, error);
      if (text) toastError(text);
    }
  };
  return (
    <div className="report-evidence-check">
      <RunButton
        label={s.checkEvidence}
        busyLabel={s.checkingEvidence}
        className="btn btn-secondary"
        onRun={run}
      />
      <p role="status" className={answer?.differs ? 'report-warning' : 'muted'}>
        {answer?.text ?? ''}
      </p>
    </div>
  );
}

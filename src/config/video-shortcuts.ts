/**
 * Keyboard shortcuts of the Video Analysis page, defined once: the page binds these keys and the
 * User Guide lists them (beyond the spec; docs/video-analysis.md).
 */
export type VideoShortcutAction =
  | 'togglePlay'
  | 'previousKeyframe'
  | 'nextKeyframe'
  | 'back'
  | 'pause'
  | 'play'
  | 'slower'
  | 'faster'
  | 'nextDetection'
  | 'previousDetection';

export interface VideoShortcut {
  action: VideoShortcutAction;
  /** KeyboardEvent.key values (letters in lower case; Shift does not matter). */
  keys: readonly string[];
  /** How the key is written for people. */
  label: string;
  description: string;
}

/** J jumps back this far (seconds). */
export const backJumpSeconds = 5;

export const videoShortcuts: readonly VideoShortcut[] = [
  { action: 'togglePlay', keys: [' '], label: 'Space', description: 'Play or pause the video' },
  {
    action: 'previousKeyframe',
    keys: ['ArrowLeft'],
    label: '←',
    description: 'Go to the previous keyframe image (an open keyframe window follows)',
  },
  {
    action: 'nextKeyframe',
    keys: ['ArrowRight'],
    label: '→',
    description: 'Go to the next keyframe image (an open keyframe window follows)',
  },
  {
    action: 'back',
    keys: ['j'],
    label: 'J',
    description: `Jump back ${backJumpSeconds} seconds`,
  },
  { action: 'pause', keys: ['k'], label: 'K', description: 'Pause' },
  {
    action: 'play',
    keys: ['l'],
    label: 'L',
    description: 'Play; while playing, play faster (up to 2×)',
  },
  { action: 'slower', keys: ['['], label: '[', description: 'Slower playback (down to 0.25×)' },
  { action: 'faster', keys: [']'], label: ']', description: 'Faster playback (up to 2×)' },
  {
    action: 'nextDetection',
    keys: ['n'],
    label: 'N',
    description: 'Go to the next detection and highlight it (an open keyframe window shows it)',
  },
  {
    action: 'previousDetection',
    keys: ['p'],
    label: 'P',
    description: 'Go to the previous detection and highlight it (an open keyframe window shows it)',
  },
];

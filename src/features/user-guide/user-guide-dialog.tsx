import { Tabs } from 'radix-ui';
import { useSnapshot } from 'valtio';
import { AppDialog } from '../../components/app-dialog.tsx';
import { videoShortcuts } from '../../config/video-shortcuts.ts';
import { keyboardShortcuts, setKeyboardShortcuts } from '../../stores/keyboard-shortcuts.ts';
import { session } from '../../stores/session.ts';
import './user-guide.css';

export interface UserGuideDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Spec §2/§9: the User Guide modal at 70vw, on floor-plan setup, mobile operations and AI analysis.
 * On a phone 70vw is a 273 px column; there it takes the screen's width less the margins.
 */
const guideWidth = 'max(70vw, min(100vw - 2rem, 36rem))';

/** The topic a role opens the guide on: its own work (an operator records; a reviewer analyses). */
function firstTopic(roles: readonly string[]): string {
  if (roles.some((role) => role === 'admin' || role === 'factory_manager')) return 'floorplan';
  if (roles.some((role) => role === 'lc_manager' || role === 'audit')) return 'analysis';
  return roles.includes('operator') ? 'mobile' : 'floorplan';
}

export default function UserGuideDialog({ open, onOpenChange }: UserGuideDialogProps) {
  const shortcuts = useSnapshot(keyboardShortcuts);
  const { roles } = useSnapshot(session);
  return (
    <AppDialog open={open} onOpenChange={onOpenChange} title="User Guide" width={guideWidth}>
      <Tabs.Root defaultValue={firstTopic(roles)} className="tabs">
        <Tabs.List className="tab-list" aria-label="User Guide topics">
          <Tabs.Trigger className="tab" value="floorplan">
            Floorplan Setup
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="mobile">
            Mobile Operations
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="analysis">
            AI Analysis
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="roles">
            Roles
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="floorplan" className="guide">
          <h3>Setting up a floorplan</h3>
          <p>
            Each line clearance (inspection area) has one floorplan. Open{' '}
            <strong>Manage Floorplans</strong> from your dashboard and follow the five steps:
          </p>
          <ol>
            <li>
              <strong>Upload Floorplan</strong>: choose a PNG, JPG, JPEG or GIF image of the line
              and the line clearance it belongs to. Uploading for a line that already has a
              floorplan offers to replace it.
            </li>
            <li>
              <strong>Configure Floorplan Mapping</strong>: check the line and its floorplan, then
              continue to calibration.
            </li>
            <li>
              <strong>Points of Interest</strong>: place QR tags (click), hot zones (drag a
              rectangle larger than 20 × 20 pixels) and static cameras (click). Set the pixels per
              meter (default 50) so walked distances match the drawing. Placing a tag or camera
              within 30 pixels of another one warns you but is allowed. Each new tag gets a QR code
              of its own (change it with the tag's <strong>Edit</strong> if you like): the
              operator's phone finds a tag by this code, so a tag without one cannot be scanned.
            </li>
            <li>
              <strong>Review &amp; Save</strong>: check the counts of hot zones, tags and cameras,
              and the tags listed without a QR code (<strong>Give codes to tags without one</strong>{' '}
              fixes them); export the configuration as JSON if you need a copy, then save it.
            </li>
            <li>
              <strong>Success</strong>: configure another floorplan or go back to the list.
            </li>
          </ol>
          <p>
            <strong>QR labels</strong>: <strong>Print QR labels</strong>, at Review &amp; Save or on
            the floorplan's card at Configure Floorplan Mapping once the line's tags are saved,
            prints one label per tag with its QR code, name, line and code. Print at 100 % scale,
            save the configuration first, and stick each label on the line where its tag is on the
            floorplan.
          </p>
          <p>
            Hot zones mark places where left-over material is most likely (feeders, reject bins,
            under conveyors); give them an importance from low to critical.
          </p>
        </Tabs.Content>
        <Tabs.Content value="mobile" className="guide">
          <h3>On the shop floor</h3>
          <ul>
            <li>
              Open the app on a phone or tablet and sign in with your own account: every inspection
              records who performed it.
            </li>
            <li>
              Press <strong>Start Inspection</strong> and choose the line clearance, and the device
              you use if it is registered (<strong>Register Device</strong> on your dashboard scans
              its label once).
            </li>
            <li>
              Record the inspection video while walking the line and point the camera at each tag's
              QR label: a tag is checked when its QR code is scanned, and the checklist on the
              screen ticks it. A tag whose label was not scanned counts only if the analysed path
              passes right by it; otherwise the report flags it as not scanned.
            </li>
            <li>
              Add notes about anything you found or removed, then upload. A weak Wi-Fi connection
              only slows the upload; keep the app open until it reports success.
            </li>
          </ul>
        </Tabs.Content>
        <Tabs.Content value="analysis" className="guide">
          <h3>AI analysis and review</h3>
          <ul>
            <li>
              After upload, the analysis tracks the operator's path through the line and looks for
              objects and issues on keyframe images (for example left-over labels, cartons or
              product).
            </li>
            <li>
              In the <strong>Video Library</strong>, pick a video from the timeline on the left. The
              video, the path on the floorplan and the detections move together as you play or drag
              the time slider.
            </li>
            <li>
              Click a point on the path or a detection to see the keyframe with the detected boxes
              and their confidence.
            </li>
            <li>
              Line clearance managers then approve or reject the pending inspection from the
              Inspections tab; the decision is recorded with their name and the time.
            </li>
          </ul>
          <h4>Keyboard shortcuts on the Video Analysis page</h4>
          <p>
            They work while the focus is on the video, the path, the time slider or the detections,
            or on no control at all (click an empty part of the page), and never while you type in a
            field. On an inspection report, <kbd>F</kbd> goes to the next flag.
          </p>
          <label className="guide-switch">
            <input
              type="checkbox"
              role="switch"
              checked={shortcuts.on}
              aria-checked={shortcuts.on}
              onChange={(event) => setKeyboardShortcuts(event.target.checked)}
            />
            Keyboard shortcuts
          </label>
          <p className="muted">
            Turn them off if you use speech input, or if they get in your way.
          </p>
          <table className="guide-shortcuts">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">What it does</th>
              </tr>
            </thead>
            <tbody>
              {videoShortcuts.map((shortcut) => (
                <tr key={shortcut.action}>
                  <td>
                    <kbd>{shortcut.label}</kbd>
                  </td>
                  <td>{shortcut.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Tabs.Content>
        <Tabs.Content value="roles" className="guide">
          <h3>Who can do what</h3>
          <ul>
            <li>
              <strong>Administrators</strong> have full access: users, line clearances, devices,
              videos and floorplans.
            </li>
            <li>
              <strong>Factory managers</strong> oversee the factory and its areas.
            </li>
            <li>
              <strong>Line clearance managers</strong> manage their lines and operators and approve
              or reject inspections.
            </li>
            <li>
              <strong>Operators</strong> perform and record inspections.
            </li>
            <li>
              <strong>Auditors</strong> review inspections, videos and reports without changing
              them.
            </li>
          </ul>
        </Tabs.Content>
      </Tabs.Root>
    </AppDialog>
  );
}

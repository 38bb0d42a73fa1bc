/**
 * Spec §5/§8 wording shared by every entity (line clearance, user, device, operator, video):
 * 'Failed to load line clearances', 'User created successfully', 'Failed to delete device',
 * 'Are you sure you want to delete this operator?'.
 */
export function entityMessages(singular: string, plural: string) {
  const capital = singular.charAt(0).toUpperCase() + singular.slice(1);
  return {
    /** How a list counts it ('1 video', '24 videos'). */
    noun: [singular, plural] as const,
    loadFailed: `Failed to load ${plural}`,
    created: `${capital} created successfully`,
    updated: `${capital} updated successfully`,
    deleted: `${capital} deleted successfully`,
    createFailed: `Failed to create ${singular}`,
    updateFailed: `Failed to update ${singular}`,
    deleteFailed: `Failed to delete ${singular}`,
    confirmDelete: `Are you sure you want to delete this ${singular}?`,
  };
}

export const lineClearanceMessages = entityMessages('line clearance', 'line clearances');
export const userMessages = entityMessages('user', 'users');
export const deviceMessages = entityMessages('device', 'devices');
export const operatorMessages = entityMessages('operator', 'operators');
export const videoMessages = entityMessages('video', 'videos');
export const inspectionMessages = entityMessages('inspection', 'inspections');

/**
 * Sets an element's text for a display updated every frame (the time, the keyframe readout): it
 * rewrites its one text node instead of replacing it, which the browser lays out as a text change
 * rather than a node removed and another inserted, and does nothing when the text is the same.
 */
export function setLiveText(element: HTMLElement, text: string): void {
  const node = element.firstChild;
  if (node instanceof Text && node === element.lastChild) {
    if (node.data !== text) node.data = text;
  } else {
    element.textContent = text;
  }
}

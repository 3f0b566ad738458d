/**
 * The read-only inspector of {@code setree inspect}: {@link dev.setree.cli.inspect.TreeInspector} (the text and
 * JSON views of a tree snapshot) and {@link dev.setree.cli.inspect.InspectorHtml} (the self-contained HTML page).
 */
package dev.setree.cli.inspect;

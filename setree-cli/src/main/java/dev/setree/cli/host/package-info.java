/**
 * The web host of {@code setree host}: one knowledge base served to a browser on loopback, with the tree,
 * retrieve, chat and edit views (issue 15, ADR 0016). Everything goes through the {@link dev.setree.SETree}
 * facade; the page's assets are resources of this package.
 */
package dev.setree.cli.host;

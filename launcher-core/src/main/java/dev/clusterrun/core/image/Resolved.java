package dev.clusterrun.core.image;

/**
 * What a tag stands for now.
 *
 * @param digest the manifest enroot imports for the platform: the tag's own manifest, or the
 *     platform's entry of its manifest list or index
 * @param indexDigest the digest of the manifest list or OCI index the tag names, or null
 * @param mediaType the manifest's media type, or null when the image was pinned by digest (no
 *     request made)
 * @param viaCredentials whether credentials from the netrc file were sent
 */
public record Resolved(
    String digest, String indexDigest, String mediaType, boolean viaCredentials) {}

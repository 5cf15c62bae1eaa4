/** The plan: what runs where and with which words, made without touching a node. */
package dev.clusterrun.core.launch.plan;

/**
 * The run path: its entry points ({@code LaunchFlow}) and one run's steps ({@code RunAttempt}). Its
 * role packages depend one way, each on those before it: {@code io}, {@code head} and {@code
 * cleanup}; {@code job}; {@code proof}; {@code plan}; {@code container}; {@code run}; {@code
 * mpirun} and {@code pernode} (docs/architecture.md).
 */
package dev.clusterrun.core.launch;

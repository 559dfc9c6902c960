// make bench: the cost of benchtui's probes on a benchmark that stops its
// timer every iteration (bench/run.sh "Probes on the harness's timer").
#include <benchmark/benchmark.h>
#include <cstdint>
#include <vector>

static void BM_pause_each(benchmark::State &state)
{
	std::vector<uint64_t> v(4096);
	uint64_t seed = 1, sum = 0;

	for (auto _ : state) {
		state.PauseTiming();
		for (auto &x : v)
			x = seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		state.ResumeTiming();
		for (auto x : v)
			sum += x * x;
		benchmark::DoNotOptimize(sum);
	}
}
BENCHMARK(BM_pause_each);

static void BM_plain(benchmark::State &state)
{
	std::vector<uint64_t> v(4096, 3);
	uint64_t sum = 0;

	for (auto _ : state) {
		for (auto x : v)
			sum += x * x;
		benchmark::DoNotOptimize(sum);
	}
}
BENCHMARK(BM_plain);
BENCHMARK_MAIN();

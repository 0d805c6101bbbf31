/* raytrace: the driver. Renders the scene at SIZE pixels wide (3:4 high)
 * with 2 x 2 samples per pixel and prints a checksum of the 8-bit image.
 * RAYTRACE_PPM=file also writes the image, to look at. */
#include "raytrace.h"

#include <stdio.h>
#include <stdlib.h>

static void rt_write_ppm(const rt_image *img, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return;
    }
    fprintf(f, "P6\n%d %d\n255\n", img->w, img->h);
    fwrite(img->rgb, 3, (size_t)img->w * (size_t)img->h, f);
    fclose(f);
}

int main(int argc, char **argv)
{
    static const nw_sizes sizes = {16, 256, 1024};
    long width;
    if (nw_args_parse(argc, argv, "SIZE: image width in pixels (small 16, default 256)", &sizes,
                      &width, NULL))
        return 2;
    if (width < 4 || width > 16384) {
        fprintf(stderr, "raytrace: width must be 4..16384\n");
        return 2;
    }
    rt_scene sc;
    rt_scene_build(&sc, 2024);
    rt_image img;
    img.w = (int)width;
    img.h = (int)(width * 3 / 4);
    img.rgb = nw_alloc(3 * (size_t)img.w * (size_t)img.h);
    rt_render(&sc, &img, 2);
    uint64_t h = nw_hash_bytes(NW_HASH_INIT, img.rgb, 3 * (size_t)img.w * (size_t)img.h);
    h = nw_hash_u64(h, sc.rays);
    h = nw_hash_u64(h, sc.shadow_rays);
    fprintf(stderr, "raytrace: %dx%d, %llu rays, %llu shadow rays, %llu BVH nodes visited, "
            "BVH depth %d\n", img.w, img.h, (unsigned long long)sc.rays,
            (unsigned long long)sc.shadow_rays, (unsigned long long)sc.node_visits,
            rt_bvh_depth(sc.bvh));
    const char *ppm = getenv("RAYTRACE_PPM");
    if (ppm)
        rt_write_ppm(&img, ppm);
    free(img.rgb);
    rt_scene_free(&sc);
    nw_report("raytrace", h);
    return 0;
}
